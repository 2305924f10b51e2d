import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";

/**
 * A real reference api on a random loopback port with a fresh in-memory, seeded database. Its clock starts at
 * the test servers' instant unless `clockStart` says otherwise: the demo is then the same for every file, seeded
 * once per run and copied after (SEED_CACHE_DIR, api/db/seed/snapshot.ts).
 */
export async function startTestApi(
  opts: {
    thermostatActionDelayMs?: number;
    utilityProviderDelayMs?: number;
    clockStart?: string;
    testHooks?: boolean;
  } = {},
): Promise<RunningApi> {
  // No notification scheduler: tests run the jobs through POST /dev/notifications/run, at known moments.
  // Test hooks on, as on the e2e servers: the tests read the outbox (GET /dev/outbox).
  return startApi({
    port: 0,
    dbFile: ":memory:",
    quiet: true,
    webBaseUrl: "http://web.test",
    notificationIntervalMs: 0,
    testHooks: true,
    clockStart: TEST_CLOCK_START,
    ...opts,
  });
}

export async function call(
  api: RunningApi,
  method: string,
  path: string,
  opts: { body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
      ...opts.headers,
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, json: json as Record<string, unknown> & { items?: unknown[] }, res };
}

/** Signs in with a password and returns the `api_session` cookie pair. */
export async function loginCookie(api: RunningApi, email: string, password = "demo-pass-2024") {
  const r = await call(api, "POST", "/auth/login", { body: { email, password } });
  if (r.status !== 200) throw new Error(`login failed for ${email}: ${r.status}`);
  return r.res.headers.get("set-cookie")!.split(";")[0];
}

export async function latestMail(api: RunningApi, email: string) {
  const r = await call(api, "GET", `/dev/outbox?email=${encodeURIComponent(email)}`);
  return (r.json.items as { subject: string; links: string[]; code: string | null }[])[0];
}
