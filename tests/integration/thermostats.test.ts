import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";
import * as clock from "../../api/lib/clock";
import { TEST_CLOCK_START } from "../support/clock";
import { tickThermostats } from "../../api/simulators/thermostats";

/** The reference api's thermostat endpoints over real HTTP, and the page loader against a failing upstream. */

let api: RunningApi;
const cookies: Record<string, string> = {};

async function login(email: string) {
  const res = await fetch(`${api.url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "demo-pass-2024" }),
  });
  expect(res.status).toBe(200);
  cookies[email] = res.headers.getSetCookie()[0].split(";")[0];
}

async function call(email: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      cookie: cookies[email],
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const DANA = "dana@harborcoffee.test";
const ALEX = "alex@mapledental.test";
const SAM = "sam@harborcoffee.test";

type Item = {
  thermostat: { id: number; vendor: string };
  is_reachable: boolean;
  dispatch: { id: number } | null;
  thermostat_action: { id: number; status: string; dispatch_id: number | null } | null;
  issues: { id: number; issue_slug: string; current_status: string; is_dismissed: boolean }[];
  state: { mode: string; cool_setpoint_f: number; has_schedule: boolean };
};

beforeAll(async () => {
  api = await startApi({
    port: 0,
    clockStart: TEST_CLOCK_START,
    dbFile: ":memory:",
    thermostatActionDelayMs: 60_000,
    quiet: true,
    staffEmailDomain: "energyops.test",
    // A test server: its outbox (GET /dev/outbox, where the sign-in codes are read) is served with test hooks.
    testHooks: true,
  });
  await login(DANA);
  await login(ALEX);
  // Sam has no password; sign in through a login code.
  await fetch(`${api.url}/auth/login-code/request`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: SAM }),
  });
  const outbox = (await (await fetch(`${api.url}/dev/outbox?email=${encodeURIComponent(SAM)}`)).json()) as {
    items: { code: string }[];
  };
  const res = await fetch(`${api.url}/auth/login-code`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: SAM, code: outbox.items[0].code }),
  });
  cookies[SAM] = res.headers.getSetCookie()[0].split(";")[0];
});

afterAll(async () => {
  await api.close();
});

describe("GET /building/{id}/thermostats", () => {
  it("lists info items with the dispatch that spans now and the latest action", async () => {
    const { status, body } = await call(DANA, "GET", "/building/101/thermostats");
    expect(status).toBe(200);
    const items = body.items as Item[];
    expect(items.map((i) => i.thermostat.id)).toEqual([1001, 1002, 1003, 1004]);
    expect(items[0].dispatch?.id).toBe(1);
    expect(items[0].thermostat_action).toMatchObject({ status: "success", dispatch_id: 1 });
    expect(items[2].dispatch).toBeNull();
  });
  it("gives every seeded intent its issue", async () => {
    const { body } = await call(DANA, "GET", "/building/113/thermostats");
    const lobby = (body.items as Item[])[0];
    expect(lobby.issues.map((i) => [i.issue_slug, i.current_status])).toEqual([
      ["permanent_hold", "dismissed"],
      ["cool_setpoint_below_indoor_temp", "active"],
    ]);
  });
  it("answers 404 for another client's building and a building the user may not see", async () => {
    expect((await call(ALEX, "GET", "/building/101/thermostats")).status).toBe(404);
    expect((await call(SAM, "GET", "/building/103/thermostats")).status).toBe(404);
    expect((await call(ALEX, "GET", "/building/201/thermostats")).body).toEqual({ items: [] });
  });
});

describe("GET /thermostats/{id} (our extension of the contract)", () => {
  it("answers one thermostat's info item with its building's names", async () => {
    const { status, body } = await call(DANA, "GET", "/thermostats/1024");
    expect(status).toBe(200);
    const listed = (await call(DANA, "GET", "/building/109/thermostats")).body.items as Item[];
    const { building, ...item } = body as Item & { building: { id: number; name: string } };
    expect(item).toEqual(listed.find((i) => i.thermostat.id === 1024));
    const buildings = (await call(DANA, "GET", "/buildings?size=75&page=1")).body.items as {
      id: number;
      name: string;
      nickname: string | null;
    }[];
    const b = buildings.find((x) => x.id === 109)!;
    expect(building).toEqual({ id: 109, name: b.name, nickname: b.nickname });
  });
  it("checks access like every thermostat-scoped call: 404 for another client's or an invisible one", async () => {
    const notFound = { message: "Object Not Found Matching Id" };
    expect(await call(ALEX, "GET", "/thermostats/1024")).toEqual({ status: 404, body: notFound });
    const hidden = (await call(DANA, "GET", "/building/103/thermostats")).body.items as Item[];
    expect(hidden.length).toBeGreaterThan(0);
    expect(await call(SAM, "GET", `/thermostats/${hidden[0].thermostat.id}`)).toEqual({
      status: 404,
      body: notFound,
    });
    expect((await call(DANA, "GET", "/thermostats/999999")).status).toBe(404);
    expect((await call(DANA, "GET", "/thermostats/not-an-id")).status).toBe(404);
    const anonymous = await fetch(`${api.url}/thermostats/1024`);
    expect(anonymous.status).toBe(401);
  });
});

describe("settings and actions", () => {
  it("refuses settings outside the device's limits with the validation body", async () => {
    const high = await call(DANA, "POST", "/thermostats/1012/settings", { cool_setpoint_f: 99 });
    expect(high.status).toBe(422);
    expect(high.body.body_params).toEqual([
      { location: "cool_setpoint_f", message: "must be between 50 and 90" },
    ]);
    const mode = await call(DANA, "POST", "/thermostats/1012/settings", { mode: "emergencyheat" });
    expect(mode.body.body_params[0].location).toBe("mode");
    const auto = await call(DANA, "POST", "/thermostats/1012/settings", {
      mode: "auto",
      cool_setpoint_f: 70,
      heat_setpoint_f: 69,
    });
    expect(auto.body.body_params[0]).toMatchObject({ location: "cool_setpoint_f" });
    const empty = await call(DANA, "POST", "/thermostats/1012/settings", {});
    expect(empty.status).toBe(422);
  });
  it("creates a pending action; a newer one cancels it; the vendor completes or fails them", async () => {
    const first = await call(DANA, "POST", "/thermostats/1012/settings", { cool_setpoint_f: 80 });
    expect(first.body).toMatchObject({
      status: "pending",
      device_specific_data: { cool_setpoint_f: 80 },
      thermostat_name: "Warehouse",
    });
    const second = await call(DANA, "POST", "/thermostats/1012/settings", { cool_setpoint_f: 81 });
    const older = await call(DANA, "GET", `/thermostats/1012/thermostat-actions/${first.body.id}`);
    expect(older.body).toMatchObject({ status: "fail" });
    expect(older.body.reason).toMatch(/newer change/);
    const offline = await call(DANA, "POST", "/thermostats/1007/settings", { cool_setpoint_f: 80 });

    tickThermostats(api.deps, new Date(clock.nowMs() + 61_000));
    const done = await call(DANA, "GET", `/thermostats/1012/thermostat-actions/${second.body.id}`);
    expect(done.body.status).toBe("success");
    const failed = await call(DANA, "GET", `/thermostats/1007/thermostat-actions/${offline.body.id}`);
    expect(failed.body.status).toBe("fail");
    expect(failed.body.reason).toMatch(/did not respond/);
    const list = await call(DANA, "GET", "/building/104/thermostats");
    expect((list.body.items as Item[]).find((i) => i.thermostat.id === 1012)?.state.cool_setpoint_f).toBe(81);
  });
  it("checks ownership of thermostats and actions", async () => {
    expect((await call(ALEX, "POST", "/thermostats/1012/settings", { cool_setpoint_f: 80 })).status).toBe(
      404,
    );
    expect((await call(ALEX, "GET", "/thermostats/1001/thermostat-actions/1")).status).toBe(404);
    expect((await call(DANA, "GET", "/thermostats/1002/thermostat-actions/1")).status).toBe(404);
  });
});

describe("issues", () => {
  it("resolve moves an issue to processing, then the simulator to resolved", async () => {
    const res = await call(DANA, "POST", "/thermostats/1014/audit-issues/2/resolve");
    expect(res.body).toMatchObject({ id: 2, current_status: "processing" });
    tickThermostats(api.deps, new Date(clock.nowMs() + 61_000));
    const { body } = await call(DANA, "GET", "/building/105/thermostats");
    expect((body.items as Item[]).find((i) => i.thermostat.id === 1014)?.issues[0].current_status).toBe(
      "resolved",
    );
  });
  it("dismiss sets is_dismissed; Airzone devices are refused", async () => {
    const res = await call(DANA, "PATCH", "/thermostats/1015/audit-issues/3/dismiss", { is_dismissed: true });
    expect(res.body).toMatchObject({ current_status: "dismissed", is_dismissed: true });
    expect(
      (await call(DANA, "PATCH", "/thermostats/1019/audit-issues/4/dismiss", { is_dismissed: true })).status,
    ).toBe(400);
    expect((await call(DANA, "POST", "/thermostats/1019/audit-issues/4/resolve")).status).toBe(400);
    expect((await call(DANA, "POST", "/thermostats/1013/audit-issues/2/resolve")).status).toBe(404);
    expect(
      (await call(ALEX, "PATCH", "/thermostats/1013/audit-issues/1/dismiss", { is_dismissed: true })).status,
    ).toBe(404);
  });
  it("the email dismissal is idempotent (204 twice) and checks slug and ownership", async () => {
    expect((await call(DANA, "PATCH", "/thermostats/dismiss-audit-issue/1024/permanent_hold")).status).toBe(
      204,
    );
    expect((await call(DANA, "PATCH", "/thermostats/dismiss-audit-issue/1024/permanent_hold")).status).toBe(
      204,
    );
    const { body } = await call(DANA, "GET", "/building/109/thermostats");
    expect((body.items as Item[]).find((i) => i.thermostat.id === 1024)?.issues[0]).toMatchObject({
      current_status: "dismissed",
      is_dismissed: true,
    });
    expect((await call(DANA, "PATCH", "/thermostats/dismiss-audit-issue/1024/not_a_slug")).status).toBe(422);
    expect((await call(ALEX, "PATCH", "/thermostats/dismiss-audit-issue/1024/permanent_hold")).status).toBe(
      404,
    );
  });
});

describe("the control room loader", () => {
  let stub: http.Server;
  beforeAll(async () => {
    stub = http.createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.url === "/api/building/777/thermostats") {
        res.end(JSON.stringify({ items: [] }));
        return;
      }
      if (req.url?.startsWith("/api/building/999/")) {
        res.statusCode = 404;
        res.end(JSON.stringify({ message: "Object Not Found Matching Id" }));
        return;
      }
      res.statusCode = 500;
      res.end(JSON.stringify({ message: "Internal Server Error" }));
    });
    await new Promise<void>((r) => stub.listen(0, "127.0.0.1", r));
    process.env.API_URL = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/api`;
    process.env.SESSION_SECRET = "integration-secret-0123456789abcdef0123456789";
  });
  afterAll(() => new Promise<void>((r) => stub.close(() => r())));

  async function request(path: string, staff = false) {
    const { sessionStorage } = await import("~/server/upstream/session.server");
    const session = await sessionStorage().getSession();
    session.set("apiSession", "token");
    session.set("user", {
      id: 1,
      email: DANA,
      firstName: "Dana",
      lastName: "Reyes",
      clientId: 1,
      client: { id: 1, name: "Harbor Coffee Co.", clientType: "SMB" },
      isStaff: staff,
      isClientAdmin: !staff,
      isImpersonating: staff,
      canImpersonate: staff,
      isDemoMode: false,
    } as never);
    const cookie = (await sessionStorage().commitSession(session)).split(";")[0];
    return new Request(`http://localhost${path}`, { headers: { cookie } });
  }

  it("an upstream failure gives the error state, never a 500", async () => {
    const { loader } = await import("~/routes/_app.locations.$locationId.control");
    const answer = await loader({
      request: await request("/locations/101/control"),
      params: { locationId: "101" },
      context: { cspNonce: "" },
    });
    // The thermostat list is the page's primary data: its failure answers 502 (ADR 0009).
    expect(answer.init?.status).toBe(502);
    const result = answer.data;
    expect(result.error).toBe(true);
    expect(result.items).toEqual([]);
  });
  it("vendor and model detail only for impersonating staff; an empty list for a building without devices", async () => {
    const { loader } = await import("~/routes/_app.locations.$locationId.control");
    const args = (staff: boolean) => request("/locations/777/control", staff);
    const staff = (
      await loader({
        request: await args(true),
        params: { locationId: "777" },
        context: { cspNonce: "" },
      })
    ).data as { showVendor: boolean; error: boolean; items: unknown[] };
    expect(staff).toMatchObject({ showVendor: true, error: false, items: [] });
    const user = (
      await loader({
        request: await args(false),
        params: { locationId: "777" },
        context: { cspNonce: "" },
      })
    ).data as { showVendor: boolean };
    expect(user.showVendor).toBe(false);
  });
  it("a building the upstream does not know sends the user to /locations", async () => {
    const { loader } = await import("~/routes/_app.locations.$locationId.control");
    const thrown = await loader({
      request: await request("/locations/999/control"),
      params: { locationId: "999" },
      context: { cspNonce: "" },
    }).catch((e) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("location")).toBe("/locations");
  });
  it("the dismissal link page shows Submission Failed when the call fails or a parameter is missing", async () => {
    const { loader, action } = await import("~/routes/dismiss-thermostat-issue");
    // The GET only looks the thermostat up; with the upstream failing there is nothing to name.
    const failed = (await loader({
      request: await request("/dismiss-thermostat-issue?thermostatId=1013&issueSlug=permanent_hold"),
      params: {},
      context: { cspNonce: "" },
    })) as unknown as { data: unknown; init: ResponseInit | null };
    // The page names nothing and says so, with the outage's status (ADR 9).
    expect(failed.init?.status).toBe(502);
    expect(failed.data).toEqual({
      target: null,
      params: { thermostatId: 1013, issueSlug: "permanent_hold" },
    });
    const missing = await loader({
      request: await request("/dismiss-thermostat-issue?thermostatId=1013"),
      params: {},
      context: { cspNonce: "" },
    });
    expect(missing).toEqual({ target: null, params: null });
    // The POST dismisses; a failed upstream call is Submission Failed.
    const post = await request("/dismiss-thermostat-issue?thermostatId=1013&issueSlug=permanent_hold");
    const posted = await action({
      request: new Request(post.url, {
        method: "POST",
        headers: { cookie: post.headers.get("cookie")!, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ thermostatId: "1013", issueSlug: "permanent_hold" }),
      }),
      params: {},
      context: { cspNonce: "" },
    });
    const postedAnswer = posted as unknown as { data: unknown; init: ResponseInit | null };
    expect(postedAnswer.init?.status).toBe(502);
    expect(postedAnswer.data).toEqual({ ok: false });
  });
});
