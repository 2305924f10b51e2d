import { describe, expect, it } from "vitest";
import { apiConfigFromEnv, ARCADIA_DEMO_WEBHOOK_SECRET } from "../../api/config";
import {
  arcadiaEventEffect,
  isNewerEvent,
  isWebReturnAddress,
  signWebhook,
  verifyWebhook,
} from "../../api/lib/arcadia";
import { simulatedOutcome } from "../../api/simulators/arcadia";
import { connectCspSources } from "../../app/lib/arcadia-connect";
import { connectProblemMessage } from "../../app/features/accounts/components/connect-widget";

describe("ARCADIA_* configuration", () => {
  it("production against a real provider refuses to start without the webhook signing key, naming it", () => {
    const live = {
      NODE_ENV: "production",
      ARCADIA_API_URL: "https://api.arcadia.com",
      ARCADIA_CLIENT_ID: "id",
      ARCADIA_CLIENT_SECRET: "secret-secret",
    };
    expect(() => apiConfigFromEnv(live)).toThrow(
      /ARCADIA_WEBHOOK_SECRET: required when ARCADIA_API_URL is set/,
    );
    expect(() => apiConfigFromEnv({ ...live, ARCADIA_WEBHOOK_SECRET: ARCADIA_DEMO_WEBHOOK_SECRET })).toThrow(
      /ARCADIA_WEBHOOK_SECRET: the demo key is for the simulator only/,
    );
    expect(
      apiConfigFromEnv({ ...live, ARCADIA_WEBHOOK_SECRET: "a-real-signing-key-123" }).arcadia.apiUrl,
    ).toBe("https://api.arcadia.com");
  });
  it("the demo key is refused in production unless the demo switch is on; a live provider always needs a secret; keys are trimmed", () => {
    const live = {
      ARCADIA_API_URL: "https://api.arcadia.com",
      ARCADIA_CLIENT_ID: "id",
      ARCADIA_CLIENT_SECRET: "secret-secret",
    };
    // A live provider needs its own key whatever NODE_ENV (before: only in production).
    for (const NODE_ENV of ["development", "test", "production"])
      expect(() => apiConfigFromEnv({ ...live, NODE_ENV })).toThrow(
        /ARCADIA_WEBHOOK_SECRET: required when ARCADIA_API_URL is set/,
      );
    // A trailing space is the same key: still the demo key, still refused.
    expect(() =>
      apiConfigFromEnv({ ...live, ARCADIA_WEBHOOK_SECRET: `${ARCADIA_DEMO_WEBHOOK_SECRET} ` }),
    ).toThrow(/the demo key is for the simulator only/);
    expect(() =>
      apiConfigFromEnv({
        ...live,
        ARCADIA_WEBHOOK_SECRET: "a-real-key-1234567",
        ARCADIA_DEMO_WEBHOOK_KEY: "true",
      }),
    ).toThrow(/ARCADIA_DEMO_WEBHOOK_KEY/);
    expect(
      apiConfigFromEnv({ ...live, ARCADIA_WEBHOOK_SECRET: "  a-real-signing-key-123 " }).arcadia
        .webhookSecret,
    ).toBe("a-real-signing-key-123");
    // Production with the simulator (the Docker default): not the public key, but a key of this process.
    const docker = apiConfigFromEnv({ NODE_ENV: "production" }).arcadia.webhookSecret;
    expect(docker).not.toBe(ARCADIA_DEMO_WEBHOOK_SECRET);
    expect(docker).toMatch(/^[0-9a-f]{64}$/);
    expect(apiConfigFromEnv({ NODE_ENV: "production" }).arcadia.webhookSecret).not.toBe(docker);
    expect(() =>
      apiConfigFromEnv({ NODE_ENV: "production", ARCADIA_WEBHOOK_SECRET: `${ARCADIA_DEMO_WEBHOOK_SECRET} ` }),
    ).toThrow(/the public demo key is refused in production unless ARCADIA_DEMO_WEBHOOK_KEY=true/);
    // The explicit demo switch lets the public key in.
    for (const env of [{}, { ARCADIA_WEBHOOK_SECRET: ARCADIA_DEMO_WEBHOOK_SECRET }])
      expect(
        apiConfigFromEnv({ NODE_ENV: "production", ARCADIA_DEMO_WEBHOOK_KEY: "true", ...env }).arcadia
          .webhookSecret,
      ).toBe(ARCADIA_DEMO_WEBHOOK_SECRET);
  });
  it("the demo falls back to the documented demo key and the simulator", () => {
    const c = apiConfigFromEnv({ NODE_ENV: "development" });
    expect(c.arcadia).toMatchObject({
      apiUrl: null,
      webhookSecret: ARCADIA_DEMO_WEBHOOK_SECRET,
      env: "sandbox",
    });
  });
  it("a real provider needs both keys; a bad URL or env is named", () => {
    expect(() => apiConfigFromEnv({ ARCADIA_API_URL: "https://api.arcadia.com" })).toThrow(
      /ARCADIA_CLIENT_ID: required when ARCADIA_API_URL is set[\s\S]*ARCADIA_CLIENT_SECRET/,
    );
    expect(() => apiConfigFromEnv({ ARCADIA_API_URL: "not a url" })).toThrow(/ARCADIA_API_URL/);
    expect(() => apiConfigFromEnv({ ARCADIA_ENV: "live" })).toThrow(/ARCADIA_ENV/);
    expect(() => apiConfigFromEnv({ ARCADIA_WEBHOOK_SECRET: "short" })).toThrow(/ARCADIA_WEBHOOK_SECRET/);
  });
});

describe("rule arcadia-webhook-signature", () => {
  const secret = "a-signing-key-of-some-length";
  const body = Buffer.from('{"id":"evt_1"}');
  const now = Date.parse("2026-11-18T19:30:00Z");
  const ts = String(now / 1000);
  it("accepts the provider's signature over the timestamp and the exact bytes", () => {
    expect(
      verifyWebhook(secret, { timestamp: ts, signature: signWebhook(secret, ts, body) }, body, now),
    ).toEqual({ ok: true });
  });
  it("refuses missing, stale and forged deliveries", () => {
    expect(verifyWebhook(secret, { timestamp: ts }, body, now)).toEqual({ ok: false, reason: "missing" });
    const old = String(now / 1000 - 301);
    expect(
      verifyWebhook(secret, { timestamp: old, signature: signWebhook(secret, old, body) }, body, now),
    ).toEqual({ ok: false, reason: "stale" });
    expect(
      verifyWebhook(
        secret,
        { timestamp: ts, signature: signWebhook("other-key-other-key", ts, body) },
        body,
        now,
      ),
    ).toEqual({ ok: false, reason: "forged" });
    expect(verifyWebhook(secret, { timestamp: ts, signature: "zz" }, body, now)).toEqual({
      ok: false,
      reason: "forged",
    });
  });
});

describe("rule arcadia-event-status and rule arcadia-event-order", () => {
  it("maps each event to the credential state and account status the accounts page shows", () => {
    expect(arcadiaEventEffect("utility_credential_verified")).toEqual({
      credentialState: "ok",
      accountStatus: "CONNECTION_SUCCESS",
      accountDetail: "DATA_ACCESSIBLE",
    });
    expect(arcadiaEventEffect("utility_credential_rejected")?.accountDetail).toBe("CREDENTIAL_ISSUE");
    expect(arcadiaEventEffect("utility_credential_mfa_required")?.credentialState).toBe("mfa_refresh");
    expect(arcadiaEventEffect("utility_credential_timed_out")?.accountStatus).toBe("DATA_ACCESS_FAILURE");
    expect(arcadiaEventEffect("something_else")).toBeNull();
  });
  it("an older event never overwrites a newer one", () => {
    expect(isNewerEvent("2026-11-18T19:00:00Z", null)).toBe(true);
    expect(isNewerEvent("2026-11-18T19:00:00Z", "2026-11-18T19:05:00Z")).toBe(false);
    expect(isNewerEvent("2026-11-18T19:10:00Z", "2026-11-18T19:05:00Z")).toBe(true);
  });
});

describe("rule arcadia-simulator-usernames", () => {
  it("the typed username chooses the simulated outcome", () => {
    expect(simulatedOutcome("facilities@harbor.test")).toBe("verified");
    expect(simulatedOutcome("bad-login")).toBe("rejected");
    expect(simulatedOutcome("mfa-user")).toBe("mfa");
    expect(simulatedOutcome("timeout-user")).toBe("timed_out");
    expect(simulatedOutcome("error-user")).toBe("error");
  });
});

describe("rule connect-csp-pages", () => {
  const provider = { scriptUrl: "https://connect-main.prod.arcadia.com/dist/v5.js" };
  it("allows the provider's origins on the connect pages only", () => {
    for (const path of ["/authorize-arcadia", "/free-bill-health-check"])
      expect(connectCspSources(path, provider)).toEqual({
        script: ["https://connect-main.prod.arcadia.com"],
        frame: ["https://connect-main.prod.arcadia.com"],
      });
    expect(
      connectCspSources("/authorize-arcadia", { ...provider, frameOrigin: "https://connect.arcadia.com/x" })
        .frame,
    ).toEqual(["https://connect-main.prod.arcadia.com", "https://connect.arcadia.com"]);
    for (const path of ["/accounts", "/", "/authorize-arcadia/x", "/settings", "/free-bill-health-check/x"])
      expect(connectCspSources(path, provider)).toEqual({ script: [], frame: [] });
    expect(connectCspSources("/authorize-arcadia", null)).toEqual({ script: [], frame: [] });
  });
});

describe("rule connect-close-messages", () => {
  it("says nothing for a close without a submission or a verdict to come, the spec's error otherwise", () => {
    expect(connectProblemMessage("no_submit")).toBeNull();
    expect(connectProblemMessage("verified")).toBeNull();
    expect(connectProblemMessage("pending")).toBeNull();
    expect(connectProblemMessage("rejected")).toBe("The credentials used were invalid. Please reconnect.");
    expect(connectProblemMessage("timed_out")).toBe("The connection timed out. Please try again.");
    expect(connectProblemMessage("error")).toBe("An error has occurred, please try again.");
    expect(connectProblemMessage("script")).toBe("An error has occurred, please try again.");
  });
});

describe("rule connect-return-address", () => {
  it("takes a page of the configured web address, and this machine's other names on its port", () => {
    const web = "http://localhost:4100";
    expect(isWebReturnAddress(web, "http://localhost:4100/authorize-arcadia?step=success")).toBe(true);
    expect(isWebReturnAddress(web, "http://127.0.0.1:4100/authorize-arcadia?step=success")).toBe(true);
    expect(isWebReturnAddress(web, "http://[::1]:4100/authorize-arcadia")).toBe(true);
    // Another port, scheme or host is another server.
    expect(isWebReturnAddress(web, "http://127.0.0.1:3000/authorize-arcadia")).toBe(false);
    expect(isWebReturnAddress(web, "https://127.0.0.1:4100/authorize-arcadia")).toBe(false);
    expect(isWebReturnAddress(web, "http://192.0.2.7:4100/authorize-arcadia")).toBe(false);
    expect(isWebReturnAddress(web, "http://localhost:4100@evil.test/authorize-arcadia")).toBe(false);
    expect(isWebReturnAddress(web, "http://user:pw@localhost:4100/authorize-arcadia")).toBe(false);
    expect(isWebReturnAddress(web, "not a url")).toBe(false);
  });

  it("a public address is taken as configured only", () => {
    const web = "https://app.example.com";
    expect(isWebReturnAddress(web, "https://app.example.com/authorize-arcadia")).toBe(true);
    expect(isWebReturnAddress(web, "https://app.example.com.evil.test/authorize-arcadia")).toBe(false);
    expect(isWebReturnAddress(web, "http://app.example.com/authorize-arcadia")).toBe(false);
    expect(isWebReturnAddress(web, "https://localhost/authorize-arcadia")).toBe(false);
  });
});
