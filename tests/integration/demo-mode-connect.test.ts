/**
 * The connect flow in demo mode (rule demo-mode-anonymisation), through the web's loader and action against
 * the real api over HTTP: the page holds provider id stand-ins only, and a step that sends one back (the
 * `?utility=` of a link, the hidden field of the credentials form) still reaches upstream with the real id.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UTILITY_ROWS } from "../../api/db/seed/core";
import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";
import { demoProviderId, isDemoProviderId } from "../../shared/demo-stand-ins";
import { MORGAN_SESSION_USER, apiSessionOf, webSessionCookie } from "../support/session-users";

let api: RunningApi;
const ctx = { cspNonce: "" };
let connectLoader: typeof import("~/routes/_app.authorize-arcadia").loader;
let connectAction: typeof import("~/routes/_app.authorize-arcadia").action;
let impersonateAction: typeof import("~/routes/_app.impersonate").action;
let cookie = "";

const SCL = "prov_scl";
const sclStandIn = demoProviderId(SCL);

const morgan = MORGAN_SESSION_USER;

const nextCookie = (res: Response) => res.headers.get("Set-Cookie")?.split(";")[0] ?? cookie;
const post = (path: string, fields: Record<string, string>) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { cookie },
    body: new URLSearchParams(fields),
  });

type Flow = Extract<
  Awaited<ReturnType<typeof import("~/features/accounts/connect-flow.server").loadConnectFlow>>,
  { kind: "flow" }
>;
/** The connect page's loader data for `path`. */
async function flowAt(path: string) {
  const answer = (await connectLoader({
    request: new Request(`http://localhost${path}`, { headers: { cookie } }),
    params: {},
    context: ctx,
  })) as unknown as { data: Flow };
  expect(answer.data.kind).toBe("flow");
  return answer.data;
}

beforeAll(async () => {
  api = await startApi({
    port: 0,
    clockStart: TEST_CLOCK_START,
    dbFile: ":memory:",
    quiet: true,
    demoData: true,
    staffEmailDomain: "energyops.test",
  });
  process.env.API_URL = api.url;
  process.env.SESSION_SECRET = "integration-secret-0123456789abcdef0123456789";
  // The web tier's clock (app/server/clock.server.ts) starts where the api's does.
  process.env.CLOCK_START = TEST_CLOCK_START;
  const route = await import("~/routes/_app.authorize-arcadia");
  connectLoader = route.loader;
  connectAction = route.action;
  impersonateAction = (await import("~/routes/_app.impersonate")).action;

  cookie = await webSessionCookie(morgan, await apiSessionOf(api.url, morgan.email));
  // Impersonate Harbor Coffee Co., then switch demo mode on, as staff would.
  const steps: Record<string, string>[] = [
    { intent: "start", clientId: "1", reason: "demo of the connect flow" },
    { intent: "demo-on", redirectTo: "/authorize-arcadia" },
  ];
  for (const fields of steps) {
    const res = (await impersonateAction({
      request: post("/impersonate", fields),
      params: {},
      context: ctx,
    })) as Response;
    expect(res.status).toBe(302);
    cookie = nextCookie(res);
  }
});

afterAll(async () => {
  await api?.close();
});

describe("the connect flow in demo mode", () => {
  it("lists every utility under a provider id stand-in, none real", async () => {
    const flow = await flowAt("/authorize-arcadia?q=");
    expect(flow.utilities.length).toBe(UTILITY_ROWS.length);
    expect(flow.utilities.every((u) => isDemoProviderId(u.arcadiaProviderId))).toBe(true);
    const text = JSON.stringify(flow);
    expect(UTILITY_ROWS.map((u) => u[2]).filter((real) => text.includes(real))).toEqual([]);
    expect(flow.utilities.map((u) => u.arcadiaProviderId)).toContain(sclStandIn);
  });

  it("reviews the chosen utility's existing accounts from a link carrying its stand-in", async () => {
    const flow = await flowAt(`/authorize-arcadia?step=review_accounts&utility=${sclStandIn}`);
    expect(flow.step).toBe("review_accounts");
    expect(flow.utility?.arcadiaProviderId).toBe(sclStandIn);
    // Harbor's Seattle accounts: upstream was asked with the real id (a stand-in matches none of them).
    expect(flow.existing.length).toBeGreaterThan(0);
    expect(flow.existing.every((a) => a.number.startsWith("DEMO-"))).toBe(true);
  });

  it("connects with the credentials form's stand-in and records the real utility upstream", async () => {
    const correlationId = randomUUID();
    const res = (await connectAction({
      request: post("/authorize-arcadia", {
        intent: "connect",
        utility: sclStandIn,
        correlationId,
        username: "demo.viewer",
        password: "a-password",
        mfaAcknowledged: "on",
      }),
      params: {},
      context: ctx,
    })) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/authorize-arcadia?step=success&utility=${sclStandIn}`);
    const stored = api.db
      .prepare(
        "SELECT u.arcadia_provider_id AS provider FROM utility_credentials c JOIN utilities u ON u.id = c.utility_id WHERE c.correlation_id = ?",
      )
      .get(correlationId) as { provider: string } | undefined;
    expect(stored?.provider).toBe(SCL);
  });

  it("treats a stand-in of no utility as an unknown utility", async () => {
    const unknown = "prov_demo_0000000";
    expect(UTILITY_ROWS.some((u) => demoProviderId(u[2]) === unknown)).toBe(false);
    const flow = await flowAt(`/authorize-arcadia?step=review_accounts&utility=${unknown}`);
    expect(flow.step).toBe("select_utility");
    const refused = await connectAction({
      request: post("/authorize-arcadia", {
        intent: "connect",
        utility: unknown,
        correlationId: randomUUID(),
        username: "demo.viewer",
        password: "a-password",
        mfaAcknowledged: "on",
      }),
      params: {},
      context: ctx,
    });
    expect(JSON.stringify(refused)).toContain("Unknown utility");
  });
});
