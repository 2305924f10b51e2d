/**
 * The no-JavaScript Connect (the provider's hosted page) from wherever the demo is opened (rule
 * connect-return-address): the embedded api knows the web's address from its PORT when PUBLIC_URL is unset,
 * so the demo opened at http://127.0.0.1:PORT on a port other than 3000 reaches the hosted page; an address
 * the api refuses is the step's own message (400), never a 502. The web's loader and action run in-process
 * against the real api over HTTP, started as server.ts starts the embedded one.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";
import { DANA_SESSION_USER, apiSessionOf, webSessionCookie } from "../support/session-users";

const PORT = 4789;
let api: RunningApi;
const ctx = { cspNonce: "" };
let connectAction: typeof import("~/routes/_app.authorize-arcadia").action;
let connectLoader: typeof import("~/routes/_app.authorize-arcadia").loader;
let cookie = "";

const post = (origin: string, fields: Record<string, string>) =>
  new Request(`${origin}/authorize-arcadia?step=connect_arcadia&utility=prov_duke`, {
    method: "POST",
    headers: { cookie },
    body: new URLSearchParams(fields),
  });
const connect = (origin: string) =>
  connectAction({
    request: post(origin, {
      intent: "provider-url",
      utility: "prov_duke",
      correlationId: randomUUID(),
      mfaAcknowledged: "on",
    }),
    params: {},
    context: ctx,
  });

beforeAll(async () => {
  delete process.env.PUBLIC_URL;
  process.env.PORT = String(PORT);
  process.env.SESSION_SECRET = "integration-secret-0123456789abcdef0123456789";
  process.env.CLOCK_START = TEST_CLOCK_START;
  // The environment as server.ts parses it (not getConfig: its cache would keep an API_URL not known yet).
  const { embeddedWebBaseUrl, parseConfig } = await import("~/server/config.server");
  api = await startApi({
    port: 0,
    clockStart: TEST_CLOCK_START,
    dbFile: ":memory:",
    quiet: true,
    demoData: true,
    staffEmailDomain: "energyops.test",
    // As server.ts starts the embedded api.
    webBaseUrl: embeddedWebBaseUrl(parseConfig(process.env)),
  });
  process.env.API_URL = api.url;
  ({ action: connectAction, loader: connectLoader } = await import("~/routes/_app.authorize-arcadia"));
  cookie = await webSessionCookie(DANA_SESSION_USER, await apiSessionOf(api.url, DANA_SESSION_USER.email));
}, 240_000);

afterAll(async () => {
  await api?.close();
});

describe("the hosted Connect page's return address", () => {
  it("the embedded api's idea of the web is this server's PORT", async () => {
    const { embeddedWebBaseUrl } = await import("~/server/config.server");
    expect(api.deps.config.webBaseUrl).toBe(`http://localhost:${PORT}`);
    expect(embeddedWebBaseUrl({ PORT: 3000, PUBLIC_URL: "https://app.example.com/" })).toBe(
      "https://app.example.com",
    );
  });

  for (const origin of [`http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`, `http://[::1]:${PORT}`]) {
    it(`opened at ${origin}: the hosted page, which comes back to ${origin}`, async () => {
      const res = (await connect(origin)) as Response;
      expect(res.status).toBe(302);
      const hosted = res.headers.get("Location")!;
      expect(hosted).toMatch(/\/arcadia-sim\/connect\/cu_/);
      // The hosted page's Cancel link is the return address the api accepted, saying it was a cancel.
      const page = await (await fetch(hosted)).text();
      expect(page).toMatch(
        new RegExp(
          `href="${origin.replace(/[[\].]/g, "\\$&")}/authorize-arcadia\\?step=success&amp;utility=prov_duke&amp;return=[0-9a-f-]{36}&amp;connect_status=cancelled"`,
        ),
      );
    });
  }

  for (const origin of [`http://192.0.2.7:${PORT}`, "http://127.0.0.1:3000"]) {
    it(`opened at ${origin}, an address the api refuses: the step says so (400, not 502)`, async () => {
      const answer = (await connect(origin)) as unknown as {
        data: { formError?: string };
        init: ResponseInit;
      };
      expect(answer.init.status).toBe(400);
      expect(answer.data.formError).toBe(
        `Connect cannot send you back to ${new URL(origin).host}: this server is set up for another address (PUBLIC_URL). Open the app at that address and connect again.`,
      );
    });
  }

  it("takes its way back once: Success the first time, then the step says the link was used", async () => {
    const origin = `http://127.0.0.1:${PORT}`;
    const res = (await connect(origin)) as Response;
    const withReceipt = res.headers.get("Set-Cookie")!.split(";")[0];
    const submitted = await fetch(res.headers.get("Location")!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ utility: "prov_duke", username: "once-login", password: "x" }),
      redirect: "manual",
    });
    const back = submitted.headers.get("location")!;
    expect(back).toMatch(/\/authorize-arcadia\?step=success&utility=prov_duke&return=/);
    const load = async (url: string, cookieHeader: string) => {
      const answer = (await connectLoader({
        request: new Request(url, { headers: { cookie: cookieHeader } }),
        params: {},
        context: ctx,
      })) as unknown as { data: { step: string; notice: string | null }; init: ResponseInit | null };
      return { ...answer.data, setCookie: new Headers(answer.init?.headers).get("Set-Cookie") };
    };
    const first = await load(back, withReceipt);
    expect(first.step).toBe("success");
    expect(first.notice).toBeNull();
    // The same way back again, with what the first answer left in the browser: refused, said, Connect offered.
    const after = first.setCookie!.split(";")[0];
    const again = await load(back, after);
    expect(again.step).toBe("connect_arcadia");
    expect(again.notice).toBe(
      "This Connect link has already been used. What it connected shows on the accounts page; to connect another login, use Connect again.",
    );
    // Another browser holding the link (no receipt of its own): the same.
    expect((await load(back, cookie)).notice).toBe(again.notice);
  });

  it("asks for the MFA acknowledgement of a utility that is not exempt before the hosted page opens", async () => {
    const ask = (utility: string, extra: Record<string, string> = {}) =>
      connectAction({
        request: new Request(
          `http://127.0.0.1:${PORT}/authorize-arcadia?step=connect_arcadia&utility=${utility}&building=105`,
          {
            method: "POST",
            headers: { cookie },
            body: new URLSearchParams({
              intent: "provider-url",
              utility,
              building: "105",
              correlationId: randomUUID(),
              ...extra,
            }),
          },
        ),
        params: {},
        context: ctx,
      });
    const refused = (await ask("prov_pse")) as unknown as { data: { mfaError?: string }; init: ResponseInit };
    expect(refused.init.status).toBe(400);
    expect(refused.data.mfaError).toBe("Required");
    expect(((await ask("prov_pse", { mfaAcknowledged: "on" })) as Response).status).toBe(302);
    // Seattle City Light is exempt: no acknowledgement asked.
    expect(((await ask("prov_scl")) as Response).status).toBe(302);
  });
});
