import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import * as clock from "./clock";
import type { ApiDeps } from "./http";
import { HttpError } from "./http";

/**
 * The utility-data provider's api, as Arcadia documents it (docs/api/arcadia.md): the client's keys buy an
 * access token (POST /auth/access_token), which buys a Connect token for a user or a stored credential
 * (POST /auth/connect_token, valid 2 hours) or a Connect URL for the no-JavaScript path (POST /auth/connect_url,
 * up to 5 days; we ask for 30 minutes). The keys never leave this process; the browser only ever sees a Connect token or URL.
 */
const accessAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().int().positive() });
const connectTokenAnswer = z.object({ connect_token: z.string().min(1), expires_at: z.string() });
const connectUrlAnswer = z.object({ connect_url: z.string().url(), expires_at: z.string() });

/** Who a Connect session is for: a new credential of one of our clients, or an existing credential (update). */
export type ConnectSubject = { clientUserId: string } | { utilityCredentialId: string };

/**
 * The provider id given to a credential stored before the provider's protocol (the demo's seed) when it is first
 * updated through Connect: random, so nobody can guess another client's and claim it first.
 */
export const localCredentialId = () => `uc_local_${randomBytes(16).toString("hex")}`;

/** Our client's id at the provider (`client_user_id`): one provider "user" per client of ours. */
export const clientUserId = (clientId: number) => `client-${clientId}`;
export const clientIdOfUser = (userId: string) => {
  const m = /^client-(\d{1,9})$/.exec(userId);
  return m ? Number(m[1]) : null;
};

/**
 * A prospect's id at the provider (the free bill health check: no client yet), one provider "user" per prospect:
 * its record's correlation id, never reused (a record's number may be, after the demo's reset).
 */
export const prospectUserId = (correlationId: string) => `prospect-${correlationId}`;
export const prospectOfUser = (userId: string) => /^prospect-([0-9a-f-]{36})$/.exec(userId)?.[1] ?? null;

let cached: { key: string; token: string; until: number } | null = null;

async function providerPost<S extends z.ZodTypeAny>(
  deps: ApiDeps,
  path: string,
  body: unknown,
  schema: S,
  bearer?: string,
): Promise<z.infer<S>> {
  const base = deps.config.arcadia.apiUrl;
  if (!base) throw new HttpError(503, { message: "The utility-data provider is not configured" });
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "Arcadia-Version": "2022-10-13",
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    deps.log("arcadia unreachable", { path, err: error instanceof Error ? error.message : String(error) });
    throw new HttpError(502, { message: "The utility-data provider did not answer" });
  }
  // Never log a body: it holds tokens.
  if (!res.ok) {
    deps.log("arcadia refused", { path, status: res.status });
    throw new HttpError(502, { message: "The utility-data provider refused the request" });
  }
  const parsed = schema.safeParse(await res.json().catch(() => null));
  if (!parsed.success)
    throw new HttpError(502, { message: "The utility-data provider answered unexpectedly" });
  return parsed.data as z.infer<S>;
}

/**
 * Whose a credential is, asked of the provider (GET /utility_credentials/{id}): its `client_user_id`, or null when
 * the provider knows no such credential. A provider credential id that reaches us from a browser is a claim; this
 * is the provider's word on it (rule arcadia-credential-claim).
 */
export async function providerCredentialOwner(deps: ApiDeps, credentialId: string): Promise<string | null> {
  const base = deps.config.arcadia.apiUrl;
  if (!base) throw new HttpError(503, { message: "The utility-data provider is not configured" });
  const token = await accessToken(deps);
  let res: Response;
  try {
    res = await fetch(`${base}/utility_credentials/${encodeURIComponent(credentialId)}`, {
      headers: { "Arcadia-Version": "2022-10-13", authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    deps.log("arcadia unreachable", {
      path: "/utility_credentials",
      err: error instanceof Error ? error.message : String(error),
    });
    throw new HttpError(502, { message: "The utility-data provider did not answer" });
  }
  if (res.status === 404) return null;
  if (!res.ok) {
    deps.log("arcadia refused", { path: "/utility_credentials", status: res.status });
    throw new HttpError(502, { message: "The utility-data provider refused the request" });
  }
  const parsed = credentialAnswer.safeParse(await res.json().catch(() => null));
  if (!parsed.success)
    throw new HttpError(502, { message: "The utility-data provider answered unexpectedly" });
  return parsed.data.client_user_id ?? null;
}
const credentialAnswer = z.object({ id: z.string(), client_user_id: z.string().nullish() });

/** An access token from the client's keys, reused until a minute before it expires. */
async function accessToken(deps: ApiDeps) {
  const { clientId, clientSecret, apiUrl } = deps.config.arcadia;
  const key = `${apiUrl}|${clientId}`;
  if (cached && cached.key === key && cached.until > Date.now()) return cached.token;
  const answer = await providerPost(
    deps,
    "/auth/access_token",
    { client_id: clientId, client_secret: clientSecret },
    accessAnswer,
  );
  cached = { key, token: answer.access_token, until: Date.now() + (answer.expires_in - 60) * 1000 };
  return answer.access_token;
}

const subjectBody = (s: ConnectSubject) =>
  "clientUserId" in s ? { client_user_id: s.clientUserId } : { utility_credential_id: s.utilityCredentialId };

/** A Connect token (JavaScript path, 2 hours) for a new connection or an update of a stored credential. */
export async function createConnectToken(deps: ApiDeps, subject: ConnectSubject) {
  const token = await accessToken(deps);
  return providerPost(deps, "/auth/connect_token", subjectBody(subject), connectTokenAnswer, token);
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether the provider's hosted page may send the person back to `redirectUrl` (rule connect-return-address):
 * a page of the web app, at its configured address (`webBaseUrl`: PUBLIC_URL, else http://localhost:PORT). When
 * that address is this machine's (localhost, 127.0.0.1, [::1]), any of those names on the same port and scheme
 * is the same web app: the demo opened at http://127.0.0.1:PORT is sent back there.
 */
export function isWebReturnAddress(webBaseUrl: string, redirectUrl: string): boolean {
  let web: URL;
  let back: URL;
  try {
    web = new URL(webBaseUrl);
    back = new URL(redirectUrl);
  } catch {
    return false;
  }
  if (back.username || back.password) return false;
  const base = web.pathname.replace(/\/$/, "");
  if (!back.pathname.startsWith(`${base}/`)) return false;
  if (back.origin === web.origin) return true;
  return (
    LOOPBACK_HOSTS.has(web.hostname) &&
    LOOPBACK_HOSTS.has(back.hostname) &&
    back.protocol === web.protocol &&
    back.port === web.port
  );
}

/**
 * A Connect URL (no-JavaScript path, `expiresInSeconds`, 30 minutes at least at the provider): the provider's
 * hosted page, which sends the person to `redirectUrl`. It names the client the accounts are connected for and
 * opens on the utility chosen in our flow (rule connect-url-session).
 */
export async function createConnectUrl(
  deps: ApiDeps,
  subject: ConnectSubject,
  redirectUrl: string,
  expiresInSeconds: number,
  /** What the hosted page shows, from the session we minted (never the browser's): whose accounts, which utility. */
  shown: { clientName: string; utilityId: string },
) {
  const token = await accessToken(deps);
  return providerPost(
    deps,
    "/auth/connect_url",
    {
      ...subjectBody(subject),
      redirect_url: redirectUrl,
      expires_in: expiresInSeconds,
      client_name: shown.clientName,
      utility_id: shown.utilityId,
    },
    connectUrlAnswer,
    token,
  );
}

// ---- webhooks ---------------------------------------------------------------------------------------------

/** How old a webhook's timestamp may be (either way) before it is refused: 5 minutes. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000;

/** Hex HMAC-SHA256 of `${timestamp}.${rawBody}` with the signing key (rule arcadia-webhook-signature). */
export function signWebhook(secret: string, timestamp: string, rawBody: string | Buffer) {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/**
 * Whether a delivery is the provider's (rule arcadia-webhook-signature): both headers present, the timestamp
 * (seconds or milliseconds since the epoch, or an ISO instant) within WEBHOOK_TOLERANCE_MS of `nowMs`, and the
 * signature equal (in constant time) to the one computed over the exact bytes received.
 */
export function verifyWebhook(
  secret: string,
  headers: { timestamp?: string | null; signature?: string | null },
  rawBody: Buffer,
  nowMs: number,
): { ok: true } | { ok: false; reason: "missing" | "stale" | "forged" } {
  const { timestamp, signature } = headers;
  if (!timestamp || !signature) return { ok: false, reason: "missing" };
  const at = /^\d{1,13}$/.test(timestamp)
    ? Number(timestamp) * (timestamp.length <= 10 ? 1000 : 1)
    : Date.parse(timestamp);
  if (!Number.isFinite(at) || Math.abs(nowMs - at) > WEBHOOK_TOLERANCE_MS)
    return { ok: false, reason: "stale" };
  const expected = Buffer.from(signWebhook(secret, timestamp, rawBody), "hex");
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, "hex") : null;
  if (!given || given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: "forged" };
  return { ok: true };
}

/** The events we act on; anything else is stored (once) and ignored. */
export const ARCADIA_EVENT_TYPES = [
  "utility_credential_verified",
  "utility_credential_rejected",
  "utility_credential_mfa_required",
  "utility_credential_timed_out",
  "utility_statement_discovered",
] as const;
export type ArcadiaEventType = (typeof ARCADIA_EVENT_TYPES)[number];

export const webhookEvent = z.object({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(100),
  created_at: z.string().datetime({ offset: true }),
  data: z
    .object({
      utility_credential_id: z.string().min(1).max(200).optional(),
      client_user_id: z.string().max(200).optional(),
      utility_id: z.string().max(100).optional(),
      username: z.string().max(200).optional(),
    })
    .passthrough()
    .default({}),
});
export type WebhookEvent = z.infer<typeof webhookEvent>;

/**
 * What a provider event does to a stored credential and its accounts (rule arcadia-event-status): the
 * credential's state (the accounts page's Reconnect and MFA Refresh banners) and the accounts' status and
 * detail (Connected, Invalid Credentials, Processing, Connection Failed). Unknown types change nothing.
 */
export function arcadiaEventEffect(type: string): {
  credentialState: "ok" | "reconnect" | "mfa_refresh";
  accountStatus: string;
  accountDetail: string | null;
} | null {
  switch (type) {
    case "utility_credential_verified":
    case "utility_statement_discovered":
      return { credentialState: "ok", accountStatus: "CONNECTION_SUCCESS", accountDetail: "DATA_ACCESSIBLE" };
    case "utility_credential_rejected":
      return {
        credentialState: "reconnect",
        accountStatus: "DATA_ACCESS_FAILURE",
        accountDetail: "CREDENTIAL_ISSUE",
      };
    case "utility_credential_mfa_required":
      return { credentialState: "mfa_refresh", accountStatus: "CONNECTION_IN_PROGRESS", accountDetail: null };
    case "utility_credential_timed_out":
      return { credentialState: "reconnect", accountStatus: "DATA_ACCESS_FAILURE", accountDetail: null };
    default:
      return null;
  }
}

/**
 * Whether an event is newer than the last one applied to its credential (rule arcadia-event-order): a late
 * delivery of an older event never overwrites a newer status. Equal instants apply in arrival order.
 */
export const isNewerEvent = (eventAt: string, lastAppliedAt: string | null) =>
  lastAppliedAt === null || Date.parse(eventAt) >= Date.parse(lastAppliedAt);

export const nowIso = () => clock.now().toISOString();
