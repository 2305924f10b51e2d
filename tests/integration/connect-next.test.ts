import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, call, loginCookie } from "./api-harness";
import type { RunningApi } from "../../api/server";
import { CLIENT, MAPLE_BUILDING } from "../../api/db/seed/ids";

/**
 * What follows a verified Connect (rules connect-what-next and onboarding-matches-data): the account reads
 * Connected with the day it happened, the client's Bill Monitoring step is complete, and the simulator delivers
 * the utility's first statement a few seconds later on the api's clock, as a bill through the provider's webhook.
 */
let api: RunningApi;
let alex: string;
const UTILITY = "prov_duke";

beforeAll(async () => {
  api = await startTestApi({ utilityProviderDelayMs: 20 });
  alex = await loginCookie(api, "alex@mapledental.test");
});
afterAll(async () => {
  await call(api, "POST", "/dev/clock", { body: { at: null } });
  await api.close();
});

const origin = () => api.url.replace(/\/api$/, "");
const until = async <T>(read: () => T | undefined, ok: (v: T) => boolean = () => true) => {
  for (let i = 0; i < 200; i++) {
    const v = read();
    if (v !== undefined && ok(v)) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("timed out waiting");
};
const billMonitoring = () =>
  (
    api.db
      .prepare("SELECT status FROM onboarding_steps WHERE client_id = ? AND name = 'bill_monitoring'")
      .get(CLIENT.maple) as { status: string }
  ).status;

describe("after a verified Connect", () => {
  it("the account reads Connected since then, Bill Monitoring is complete, and the first statement follows", async () => {
    expect(billMonitoring()).not.toBe("complete");
    const t = await call(api, "POST", "/arcadia/connect-token", {
      cookie: alex,
      body: { arcadia_provider_id: UTILITY, building_id: MAPLE_BUILDING },
    });
    expect(t.status).toBe(200);
    const res = await fetch(`${origin()}/arcadia-sim/connect/submit`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: t.json.connect_token as string,
        origin: "http://web.test",
        utility: UTILITY,
        username: "alex-dental",
        password: "x",
      }),
    });
    const credential = /"utilityCredentialId":"([^"]+)"/.exec(await res.text())![1];
    const account = await until(
      () =>
        api.db
          .prepare(
            `SELECT a.id, a.arcadia_account_status AS status FROM utility_accounts a
             JOIN utility_credentials c ON c.id = a.credential_id WHERE c.arcadia_credential_id = ?`,
          )
          .get(credential) as { id: number; status: string } | undefined,
      (a) => a.status === "CONNECTION_SUCCESS",
    );
    expect(billMonitoring()).toBe("complete");
    const listed = await call(api, "GET", `/building/${MAPLE_BUILDING}/accounts`, { cookie: alex });
    const mine = (
      listed.json.items as {
        id: number;
        connected_at: string | null;
        connected_on: string | null;
        last_statement_date: null;
      }[]
    ).find((a) => a.id === account.id)!;
    expect(mine.connected_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The day as the location counts it (rule location-today), which "Connected on …" says.
    const zone = (
      api.db.prepare("SELECT timezone FROM buildings WHERE id = ?").get(MAPLE_BUILDING) as {
        timezone: string;
      }
    ).timezone;
    expect(mine.connected_on).toBe(
      new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date(mine.connected_at!)),
    );
    expect(mine.last_statement_date).toBeNull();

    // Not before its time on the api's clock; then once.
    await new Promise((r) => setTimeout(r, 600));
    const bills = () =>
      api.db.prepare("SELECT * FROM bill_statements WHERE account_id = ?").all(account.id) as {
        building_id: number;
        consumption_kwh: number;
        total_charges_cents: number;
        service_start_date: string;
      }[];
    expect(bills()).toEqual([]);
    const later = new Date(Date.parse(mine.connected_at!) + 10_000).toISOString();
    expect((await call(api, "POST", "/dev/clock", { body: { at: later } })).status).toBe(200);
    const delivered = await until(bills, (b) => b.length > 0);
    expect(delivered).toHaveLength(1);
    expect(delivered[0].building_id).toBe(MAPLE_BUILDING);
    expect(delivered[0].consumption_kwh).toBeGreaterThan(0);
    expect(delivered[0].total_charges_cents).toBeGreaterThan(0);
    const after = await call(api, "GET", `/building/${MAPLE_BUILDING}/accounts`, { cookie: alex });
    expect(
      (after.json.items as { id: number; last_statement_date: string | null }[]).find(
        (a) => a.id === account.id,
      )!.last_statement_date,
    ).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await new Promise((r) => setTimeout(r, 600));
    expect(bills()).toHaveLength(1);
  });
});
