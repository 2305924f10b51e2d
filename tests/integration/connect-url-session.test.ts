import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, call, loginCookie } from "./api-harness";
import type { RunningApi } from "../../api/server";

/**
 * A hosted Connect URL (the no-JavaScript path) is a link whoever holds it may open (rule connect-url-session):
 * its page names the client the logins are connected for and opens on the utility chosen in our flow, both from
 * the session the api minted; and the link binds one login: another typed into it later is not bound.
 */
let api: RunningApi;
let dana: string;
const CLOCK = "2026-11-18T19:30:00.000Z";

beforeAll(async () => {
  api = await startTestApi({ clockStart: CLOCK, utilityProviderDelayMs: 20 });
  dana = await loginCookie(api, "dana@harborcoffee.test");
});
afterAll(() => api.close());

const until = async <T>(read: () => T | undefined, ok: (v: T) => boolean = () => true) => {
  for (let i = 0; i < 200; i++) {
    const v = read();
    if (v !== undefined && ok(v)) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("timed out waiting");
};
const credentialOf = (username: string) =>
  api.db.prepare("SELECT id, client_id FROM utility_credentials WHERE username = ?").get(username) as
    { id: number; client_id: number } | undefined;
const eventsFor = (username: string) =>
  api.db
    .prepare("SELECT outcome FROM arcadia_webhook_events WHERE body LIKE ? ORDER BY received_at")
    .all(`%"username":"${username}"%`) as { outcome: string | null }[];

async function mintUrl(utility: string, building?: number) {
  const url = await call(api, "POST", "/arcadia/connect-url", {
    cookie: dana,
    body: {
      arcadia_provider_id: utility,
      ...(building ? { building_id: building } : {}),
      redirect_url: "http://web.test/authorize-arcadia?step=success",
    },
  });
  expect(url.status).toBe(200);
  return url.json.connect_url as string;
}
const submit = (link: string, utility: string, username: string) =>
  fetch(link, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ utility, username, password: "x" }),
    redirect: "manual",
  });

describe("a hosted Connect URL", () => {
  it("names the client it connects for and opens on the utility chosen, whatever the address says", async () => {
    const link = await mintUrl("prov_duke");
    // The address's own query cannot choose another utility or client.
    const html = await (await fetch(`${link}?utility=prov_austin&client_name=Evil`)).text();
    expect(html).toContain("Connecting utility accounts for Harbor Coffee Co.");
    expect(html).not.toContain("Evil");
    expect(html).toMatch(/<option value="prov_duke" selected>Duke Energy<\/option>/);
    expect(html).not.toMatch(/<option value="prov_austin" selected>/);
  });

  it("binds one login: a second typed into the same link is not bound to the client", async () => {
    const link = await mintUrl("prov_pse", 105);
    expect((await submit(link, "prov_pse", "first-hosted")).status).toBe(303);
    const first = await until(() => credentialOf("first-hosted"));
    // Whoever still holds the link types another login into it.
    expect((await submit(link, "prov_pse", "second-hosted")).status).toBe(303);
    const second = await until(
      () => eventsFor("second-hosted")[0],
      (e) => e.outcome !== null,
    );
    expect(second.outcome).toBe("connect link already used");
    expect(credentialOf("second-hosted")).toBeUndefined();
    // The first login's later events still apply to it.
    expect(
      api.db.prepare("SELECT building_id FROM utility_accounts WHERE credential_id = ?").all(first.id),
    ).toEqual([{ building_id: 105 }]);
    // A new link for the same utility binds its own login.
    const again = await mintUrl("prov_pse");
    await submit(again, "prov_pse", "third-hosted");
    expect(await until(() => credentialOf("third-hosted"))).toBeTruthy();
  });
});
