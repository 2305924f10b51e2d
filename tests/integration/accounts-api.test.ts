import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";
import * as clock from "../../api/lib/clock";
import { TEST_CLOCK_START } from "../support/clock";
import { settleDueConnections } from "../../api/simulators/utility-provider";

let api: RunningApi;
const cookies: Record<string, string> = {};

async function call(who: string | null, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (who) headers.cookie = cookies[who];
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function login(who: string, email: string) {
  const res = await fetch(`${api.url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "demo-pass-2024" }),
  });
  expect(res.status).toBe(200);
  cookies[who] = res.headers.getSetCookie()[0].split(";")[0];
}

async function loginWithCode(who: string, email: string) {
  await fetch(`${api.url}/auth/login-code/request`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  const outbox = await (await fetch(`${api.url}/dev/outbox?email=${encodeURIComponent(email)}`)).json();
  const res = await fetch(`${api.url}/auth/login-code`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, code: outbox.items[0].code }),
  });
  expect(res.status).toBe(200);
  cookies[who] = res.headers.getSetCookie()[0].split(";")[0];
}

beforeAll(async () => {
  process.env.UTILITY_PROVIDER_DELAY_MS = "0";
  api = await startApi({
    port: 0,
    clockStart: TEST_CLOCK_START,
    dbFile: ":memory:",
    demoData: true,
    quiet: true,
    webBaseUrl: "http://web.test",
    // A test server: its outbox (GET /dev/outbox, where the sign-in codes are read) is served with test hooks.
    testHooks: true,
  });
  await login("dana", "dana@harborcoffee.test");
  await login("alex", "alex@mapledental.test");
  await loginWithCode("sam", "sam@harborcoffee.test");
});
afterAll(() => api.close());

describe("accounts api", () => {
  it("lists utilities publicly with their flags", async () => {
    const { status, body } = await call(null, "GET", "/arcadia-utilities");
    expect(status).toBe(200);
    expect(body.items).toHaveLength(14);
    expect(body.items.find((u: { is_jcpl: boolean }) => u.is_jcpl).requires_ebill).toBe(true);
  });

  it("lists buildings with accounts, filtered, and only for the signed-in client", async () => {
    const all = await call("dana", "GET", "/accounts");
    expect(all.body.items.length).toBe(14);
    const scl = await call("dana", "GET", "/accounts?utility=prov_scl&arcadia_credentials_exist=true");
    expect(scl.body.items.map((b: { id: number }) => b.id)).toEqual([101, 102]);
    const sam = await call("sam", "GET", "/accounts");
    expect(sam.body.items.map((b: { id: number }) => b.id)).toEqual([101, 102, 104, 106, 109]);
    const alex = await call("alex", "GET", "/accounts");
    expect(alex.body.items).toEqual([]);
    expect((await call(null, "GET", "/accounts")).status).toBe(401);
  });

  it("reports credentials requiring action and refuses another client's id", async () => {
    const { body } = await call("dana", "GET", "/1/credentials_requiring_action");
    expect(body.reconnect_urls[0]).toMatchObject({ arcadia_credential_id: 3, username: "harbor.chicago" });
    expect(body.reconnect_urls[0].url).toBe(
      "http://web.test/authorize-arcadia?utility=prov_comed&credential=3",
    );
    expect(body.mfa_refresh_urls[0].arcadia_credential_id).toBe(5);
    expect((await call("alex", "GET", "/1/credentials_requiring_action")).status).toBe(404);
  });

  it("shows a limited user only the credentials of locations they may see (rule credentials-banner-visible)", async () => {
    await loginWithCode("sam", "sam@harborcoffee.test");
    await loginWithCode("priya", "priya@harborcoffee.test");
    // Chicago (3) has an account at 106, one of sam's; Boston (5) only at 112, which he may not see.
    const sam = await call("sam", "GET", "/1/credentials_requiring_action");
    expect(sam.status).toBe(200);
    expect(sam.body.reconnect_urls.map((c: { username: string }) => c.username)).toEqual(["harbor.chicago"]);
    expect(sam.body.mfa_refresh_urls).toEqual([]);
    expect(JSON.stringify(sam.body)).not.toContain("harbor.boston");
    const priya = await call("priya", "GET", "/1/credentials_requiring_action");
    expect(priya.body).toEqual({ reconnect_urls: [], mfa_refresh_urls: [] });
  });

  it("connects through the provider and the simulator settles success and invalid credentials", async () => {
    const ok = await call("dana", "POST", "/utility-connections", {
      arcadia_provider_id: "prov_duke",
      username: "u",
      password: "p",
      building_id: 103,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.accounts[0].arcadia_account_status).toBe("CONNECTION_IN_PROGRESS");
    const bad = await call("dana", "POST", "/utility-connections", {
      arcadia_provider_id: "prov_duke",
      username: "u2",
      password: "wrong",
    });
    const mail = await call("dana", "POST", "/utility-connections", {
      arcadia_provider_id: "prov_duke",
      username: "u3",
      password: "email",
    });
    settleDueConnections(api.deps, new Date(clock.nowMs() + 1000));
    const after = await call("dana", "GET", "/accounts?utility=prov_duke");
    const byNumber = new Map<
      string,
      { arcadia_account_status: string; arcadia_account_status_detail: string }
    >();
    for (const b of after.body.items) for (const a of b.accounts) byNumber.set(a.number, a);
    for (const a of after.body.unassigned_accounts) byNumber.set(a.number, a);
    expect(byNumber.get(ok.body.accounts[0].number)).toMatchObject({
      arcadia_account_status: "CONNECTION_SUCCESS",
    });
    expect(byNumber.get(bad.body.accounts[0].number)).toMatchObject({
      arcadia_account_status_detail: "CREDENTIAL_ISSUE",
    });
    expect(byNumber.get(mail.body.accounts[0].number)).toMatchObject({
      arcadia_account_status_detail: "EMAIL_APPROVAL",
    });
    const creds = await call("dana", "GET", "/1/credentials_requiring_action");
    expect(creds.body.reconnect_urls.map((c: { username: string }) => c.username)).toContain("u2");
    expect(
      (
        await call("alex", "POST", "/utility-connections", {
          arcadia_provider_id: "prov_duke",
          username: "u",
          password: "p",
          building_id: 103,
        })
      ).status,
    ).toBe(404);
  });

  it("submits ConEd account numbers once and tolerates a retry", async () => {
    const first = await call("dana", "POST", "/create_arcadia_coned_credentials", {
      correlation_id: "c-1",
      account_numbers: [{ account_number: "11-2222-3333" }, { account_number: "29-4410-8801-0001-2" }],
    });
    expect(first.body).toEqual({ submitted: ["11-2222-3333"], already_submitted: ["29-4410-8801-0001-2"] });
    const retry = await call("dana", "POST", "/create_arcadia_coned_credentials", {
      correlation_id: "c-1",
      account_numbers: [{ account_number: "11-2222-3333" }],
    });
    expect(retry.body.submitted).toEqual(["11-2222-3333"]);
    const again = await call("dana", "POST", "/create_arcadia_coned_credentials", {
      correlation_id: "c-2",
      account_numbers: [{ account_number: "11-2222-3333" }],
    });
    expect(again.body).toEqual({ submitted: [], already_submitted: ["11-2222-3333"] });
    expect(
      (
        await call(null, "POST", "/create_arcadia_coned_credentials", {
          correlation_id: "nope",
          account_numbers: [{ account_number: "1234" }],
        })
      ).status,
    ).toBe(401);
  });
});

describe("onboarding, team and preferences api", () => {
  it("reads and updates onboarding steps of the own client only", async () => {
    const { body } = await call("dana", "GET", "/onboarding-steps/1");
    // Harbor has done it all (connected accounts, thermostats, preferences); Maple Dental has not.
    expect(body.steps.map((s: { status: string }) => s.status)).toEqual(["complete", "complete", "complete"]);
    expect(
      (await call("alex", "GET", "/onboarding-steps/2")).body.steps.map((s: { status: string }) => s.status),
    ).toEqual(["not_started", "in_progress", "complete"]);
    expect((await call("alex", "PATCH", "/onboarding-steps/1/3", { status: "complete" })).status).toBe(404);
    expect(
      (await call("dana", "PATCH", "/onboarding-steps/1/3", { status: "in_progress" })).body.status,
    ).toBe("in_progress");
    expect(
      (await call("dana", "PUT", "/update_arcadia_vitally_task", { client_id: 1, onboarding_step: 1 }))
        .status,
    ).toBe(204);
    expect(
      (await call("dana", "PUT", "/update_arcadia_vitally_task", { client_id: 1, onboarding_step: 9 }))
        .status,
    ).toBe(422);
  });

  it("lets admins read and edit team access; regular users are refused", async () => {
    const team = await call("dana", "GET", "/users/1");
    const sam = team.body.items.find((u: { id: number }) => u.id === 2);
    expect(sam.user_buildings_with_name.filter((b: { has_access: boolean }) => b.has_access)).toHaveLength(5);
    expect((await call("sam", "GET", "/users/1")).status).toBe(403);
    expect(
      (await call("sam", "PUT", "/user_building_access", { user_id: 2, building_id: 103, has_access: true }))
        .status,
    ).toBe(403);
    expect(
      (await call("dana", "PUT", "/user_building_access", { user_id: 3, building_id: 103, has_access: true }))
        .status,
    ).toBe(404);
    expect(
      (await call("dana", "PUT", "/user_building_access", { user_id: 2, building_id: 103, has_access: true }))
        .status,
    ).toBe(204);
    const after = await call("dana", "GET", "/users/1");
    expect(
      after.body.items
        .find((u: { id: number }) => u.id === 2)
        .user_buildings_with_name.find((b: { building_id: number }) => b.building_id === 103).has_access,
    ).toBe(true);
  });

  it("reads and saves the user's own preferences", async () => {
    const prefs = await call("dana", "GET", "/communication-preferences");
    const get = (
      items: {
        communication_preference_type: string;
        delivery_method_preference: string;
        enabled: boolean;
      }[],
      t: string,
    ) =>
      items.find((p) => p.communication_preference_type === t && p.delivery_method_preference === "email")!
        .enabled;
    expect(get(prefs.body.items, "monthly_recap")).toBe(false);
    const put = await call("dana", "PUT", "/communication-preferences", {
      user_id: 1,
      delivery_method_preference: "email",
      enabled: true,
      communication_preference_type: "monthly_recap",
    });
    expect(put.status).toBe(200);
    expect(get((await call("dana", "GET", "/communication-preferences")).body.items, "monthly_recap")).toBe(
      true,
    );
    expect(
      (
        await call("dana", "PUT", "/communication-preferences", {
          user_id: 2,
          delivery_method_preference: "email",
          enabled: true,
          communication_preference_type: "monthly_recap",
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call("dana", "PUT", "/communication-preferences", {
          user_id: 1,
          delivery_method_preference: "email",
          enabled: true,
          communication_preference_type: "test_event",
        })
      ).status,
    ).toBe(422);
  });
});

describe("prospect api", () => {
  it("creates and updates a prospect analysis, and connects with its correlation id", async () => {
    const created = await call(null, "POST", "/prospect-analysis", {
      arcadia_provider_id: "prov_coned",
      first_name: "Ada",
      email: "ada@example.test",
      prospect_name: "Ada's Bakery",
      rate_quote: true,
      communications_consent: false,
      utility_data: null,
    });
    expect(created.status).toBe(201);
    expect(created.body.correlation_id).toMatch(/-/);
    const wrongEmail = await call(null, "PUT", `/prospect-analysis/${created.body.id}`, {
      arcadia_provider_id: "prov_coned",
      prospect_name: "x",
      email: "eve@example.test",
      utility_data: {},
    });
    expect(wrongEmail.status).toBe(404);
    const updated = await call(null, "PUT", `/prospect-analysis/${created.body.id}`, {
      arcadia_provider_id: "prov_coned",
      prospect_name: "Ada's Bakery",
      email: "ada@example.test",
      utility_data: { coned_account_numbers: ["1234-5678"] },
    });
    expect(updated.body).toEqual(created.body);
    const connect = await call(null, "POST", "/utility-connections", {
      arcadia_provider_id: "prov_pge",
      username: "ada",
      password: "pw",
      correlation_id: created.body.correlation_id,
    });
    expect(connect.status).toBe(201);
    expect(
      (
        await call(null, "POST", "/prospect-analysis", {
          arcadia_provider_id: "prov_x",
          first_name: "A",
          email: "bad",
          prospect_name: "",
        })
      ).status,
    ).toBe(422);
  });
});
