import { afterEach, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";
import { call, loginCookie, startTestApi } from "./api-harness";

/**
 * "Unsubscribe from Thermostat Issue Alerts" sends people to My Preferences to turn them on again: the
 * preference is one of the editable ones (rule editable-preferences), and the thermostat alert job mails only
 * those whose switch is on (rule notification-recipients).
 */
const DANA = "dana@harborcoffee.test";
let api: RunningApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function danaWith(enabled: boolean) {
  api = await startTestApi({ clockStart: TEST_CLOCK_START });
  const cookie = await loginCookie(api, DANA);
  const me = (await call(api, "GET", "/user", { cookie })).json as { id: number };
  const put = await call(api, "PUT", "/communication-preferences", {
    cookie,
    body: {
      user_id: me.id,
      delivery_method_preference: "email",
      enabled,
      communication_preference_type: "device_issue",
    },
  });
  expect(put.status).toBe(200);
  const prefs = (await call(api, "GET", "/communication-preferences", { cookie })).json.items as {
    communication_preference_type: string;
    delivery_method_preference: string;
    enabled: boolean;
  }[];
  expect(
    prefs.find(
      (p) => p.communication_preference_type === "device_issue" && p.delivery_method_preference === "email",
    )?.enabled,
  ).toBe(enabled);
  const run = await call(api, "POST", "/dev/notifications/run", { body: { kind: "device_issue" } });
  expect(run.status).toBe(200);
  return (
    api.db
      .prepare("SELECT count(*) AS n FROM outbox WHERE to_email = ? AND kind = 'device_issue'")
      .get(DANA) as {
      n: number;
    }
  ).n;
}

describe("the thermostat issue alerts switch", () => {
  it("on: the thermostat alert job mails the person", async () => {
    expect(await danaWith(true)).toBeGreaterThan(0);
  });

  it("off, from My Preferences: the job mails them none", async () => {
    expect(await danaWith(false)).toBe(0);
  });
});
