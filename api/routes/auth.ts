import { timingSafeEqual } from "node:crypto";
import * as clock from "../lib/clock";
import type { Request, Response } from "express";
import { z } from "zod";
import { hashPassword, randomCode, randomToken, sha256, verifyPassword } from "../lib/crypto";
import {
  type UserRow,
  SESSION_COOKIE,
  SESSION_DAYS,
  getAuth,
  loadAuth,
  readSessionCookie,
  sessionRouter,
} from "../lib/auth";
import { type ApiDeps, HttpError, badRequest, parse, asyncRoute, route, validationError } from "../lib/http";
import { userJson } from "../lib/sessions";
import { signInRefusal, type SignInRefusal } from "../../shared/sign-in-access";
import { sendMail } from "../mail/mailer";
import { renderEmail, type EmailDoc } from "../mail/layout";
import { loginCodeEmail, loginLinkEmail, passwordResetEmail } from "../mail/sign-in";
import {
  EXPIRED_TOKEN_GRACE_MS,
  KNOWN_ADDRESSES_KEPT,
  LIVE_CODES_KEPT,
  SIGN_IN_MAIL_LIMITS,
  TOKENS_KEPT_PER_KIND,
  UNKNOWN_REQUESTER,
  mailLedgerHorizonMs,
  maySendSignInMail,
  requesterFromForwardedFor,
  signInMailWaitMs,
} from "../domain/sign-in-mail";

const CODE_MINUTES = 10;
const CODE_MAX_ATTEMPTS = 5;
const LINK_MINUTES = 15;
const RESET_MINUTES = 60;
const minutesFromNow = (m: number) => new Date(clock.nowMs() + m * 60_000).toISOString();
const nowIso = () => clock.now().toISOString();

const email = z.string().trim().min(1, "Email is required").email("Invalid email address");

/**
 * The address that asked (the browser's, which the web tier sends as X-Forwarded-For), as the sign-in mail
 * limits key it; the shared unknown requester when the caller did not say.
 */
const requesterOf = (req: Request) => requesterFromForwardedFor(req.get("x-forwarded-for"));

function findUser(deps: ApiDeps, address: string) {
  return deps.db.prepare("SELECT * FROM users WHERE email = ?").get(address.trim()) as UserRow | undefined;
}

/** Whether this person may have a session at all (rule sign-in-by-client-type): null when they may. */
function refusalOf(deps: ApiDeps, user: UserRow): SignInRefusal | null {
  const client = user.client_id
    ? (deps.db.prepare("SELECT client_type FROM clients WHERE id = ?").get(user.client_id) as
        { client_type: string } | undefined)
    : undefined;
  return signInRefusal({ isStaff: user.is_staff === 1, clientType: client?.client_type });
}

/**
 * A sign-in refused by client type, whatever the way in: 403 with `error` saying which (`mycor`: the account
 * moved to the migrated application; `resi`: login not enabled), as the login options say it.
 */
const refused = (refusal: SignInRefusal) =>
  new HttpError(403, {
    message:
      refusal === "resi"
        ? "Login has not yet been enabled for this account"
        : "This account has moved to the new commercial platform",
    error: refusal,
  });

/**
 * One ask for a sign-in mail from `requester` for `address`, counted whether or not the address has an account:
 * within the per-address limits it is written down and 0 is answered; beyond them nothing is written and the
 * answer is how many seconds until the next ask would be taken (rule sign-in-mail-limit). It depends only on
 * what this requester asked for this address, so it says nothing about whether an account exists.
 */
function askForSignInMail(deps: ApiDeps, address: string, requester: string): number {
  const { db } = deps;
  const key = sha256(address.trim().toLowerCase());
  return db.transaction(() => {
    const nowMs = clock.nowMs();
    db.prepare("DELETE FROM sign_in_mail_asks WHERE asked_at <= ?").run(
      new Date(nowMs - mailLedgerHorizonMs()).toISOString(),
    );
    const asked = (
      db
        .prepare("SELECT asked_at FROM sign_in_mail_asks WHERE address_hash = ? AND requester = ?")
        .all(key, requester) as { asked_at: string }[]
    ).map((r) => Date.parse(r.asked_at));
    const waitMs = signInMailWaitMs(asked, nowMs);
    if (waitMs > 0) return Math.ceil(waitMs / 1000);
    db.prepare("INSERT INTO sign_in_mail_asks (address_hash, requester, asked_at) VALUES (?, ?, ?)").run(
      key,
      requester,
      new Date(nowMs).toISOString(),
    );
    return 0;
  })();
}

/** Answers 429 with Retry-After when this requester asked for too many sign-in mails for this address. */
function requireSignInMailAsk(deps: ApiDeps, res: Response, address: string, requester: string) {
  const waitSeconds = askForSignInMail(deps, address, requester);
  if (waitSeconds === 0) return;
  res.setHeader("Retry-After", String(waitSeconds));
  throw new HttpError(429, {
    message: "Too many sign-in emails asked for this address from here",
    retry_after_seconds: waitSeconds,
  });
}

/** Starts a new upstream session for the user and answers the user with its cookie. */
function startSession(deps: ApiDeps, res: Response, user: UserRow, extra: Record<string, unknown> = {}) {
  const token = randomToken();
  deps.db
    .prepare("INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)")
    .run(sha256(token), user.id, nowIso(), new Date(clock.nowMs() + SESSION_DAYS * 86_400_000).toISOString());
  const auth = loadAuth(deps.db, token)!;
  res.setHeader(
    "Set-Cookie",
    `${SESSION_COOKIE}=${token}; HttpOnly; Path=/; SameSite=Lax; Max-Age=${SESSION_DAYS * 86400}`,
  );
  res.json({ ...userJson(deps, auth), ...extra });
}

const unauthorized = (message: string) => new HttpError(401, { message });

let dummyHash: string | undefined;
/** A real scrypt hash (same parameters as every password) to verify against when there is none. */
const dummyPasswordHash = () => (dummyHash ??= hashPassword(randomToken()));

const timingSafeEqualHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Consumes a single-use hashed token of the given kind, or answers 400 with the reason. */
function takeToken(deps: ApiDeps, kind: "login_link" | "password_reset", token: string, consume: boolean) {
  const row = deps.db
    .prepare("SELECT * FROM auth_tokens WHERE token_hash = ? AND kind = ?")
    .get(sha256(token), kind) as
    | { id: number; user_id: number; next: string | null; expires_at: string; used_at: string | null }
    | undefined;
  if (!row || row.used_at) return { error: "This link is invalid or has already been used.", row: null };
  if (row.expires_at <= nowIso())
    return { error: "This link has expired. Please request a new one.", row: null };
  if (consume) deps.db.prepare("UPDATE auth_tokens SET used_at = ? WHERE id = ?").run(nowIso(), row.id);
  return { error: null, row };
}

function issueToken(
  deps: ApiDeps,
  kind: "login_link" | "password_reset",
  userId: number,
  requester: string,
  minutes: number,
  next: string | undefined,
  token: string,
) {
  deps.db
    .prepare(
      "INSERT INTO auth_tokens (kind, token_hash, user_id, requester, next, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .run(kind, sha256(token), userId, requester, next ?? null, nowIso(), minutesFromNow(minutes));
  // Bounded per person, kind and requesting address: the oldest beyond the newest few are dropped. Per address,
  // so that the links a stranger asks for never push out the one the owner asked for.
  deps.db
    .prepare(
      "DELETE FROM auth_tokens WHERE user_id = ? AND kind = ? AND requester = ? AND id NOT IN (SELECT id FROM auth_tokens WHERE user_id = ? AND kind = ? AND requester = ? ORDER BY id DESC LIMIT ?)",
    )
    .run(userId, kind, requester, userId, kind, requester, TOKENS_KEPT_PER_KIND);
  return token;
}

/**
 * Mails a fresh link of `kind` to a person, if their sign-in mail limits allow one more mail: the email is
 * rendered first (asynchronous), then the send written down, the token stored and the email written in ONE
 * transaction, so no email is written for a token that was not stored, nor a token stored without its email.
 * `email` builds it from the link's absolute address on the web's `page`.
 */
async function mailLinkWithinLimits(
  deps: ApiDeps,
  kind: "login_link" | "password_reset",
  user: UserRow,
  requester: string,
  minutes: number,
  page: string,
  email: (href: string) => EmailDoc,
  next?: string,
): Promise<void> {
  const token = randomToken();
  const url = new URL(page, deps.config.webBaseUrl);
  url.searchParams.set("token", token);
  if (next) url.searchParams.set("next", next);
  const mail = await renderEmail(email(url.href));
  deps.db.transaction(() => {
    if (!takeSignInMail(deps, user.id, requester)) return;
    issueToken(deps, kind, user.id, requester, minutes, next, token);
    sendMail(deps, { to: user.email, ...mail });
  })();
}

/**
 * Whether a sign-in mail asked for from `requester` may go to this person now (api/domain/sign-in-mail.ts);
 * when it may, the send is written down in the same step, so concurrent requests cannot both take the last
 * one. Also forgets what no longer matters: sends older than the longest window, codes that can no longer be
 * used, links and reset tokens expired for more than a day (kept that long so that opening one still says it
 * expired), and addresses nobody signed in from within the known window. Run in the caller's transaction.
 */
function takeSignInMail(deps: ApiDeps, userId: number, requester: string): boolean {
  const { db } = deps;
  const nowMs = clock.nowMs();
  const now = new Date(nowMs).toISOString();
  db.prepare("DELETE FROM sign_in_mails WHERE sent_at <= ?").run(
    new Date(nowMs - mailLedgerHorizonMs()).toISOString(),
  );
  db.prepare("DELETE FROM login_codes WHERE used_at IS NOT NULL OR expires_at <= ?").run(now);
  db.prepare("DELETE FROM auth_tokens WHERE expires_at <= ?").run(
    new Date(nowMs - EXPIRED_TOKEN_GRACE_MS).toISOString(),
  );
  db.prepare("DELETE FROM known_sign_in_addresses WHERE signed_in_at <= ?").run(
    new Date(nowMs - SIGN_IN_MAIL_LIMITS.knownForMs).toISOString(),
  );
  const sent = (
    db.prepare("SELECT sent_at, requester FROM sign_in_mails WHERE user_id = ?").all(userId) as {
      sent_at: string;
      requester: string;
    }[]
  ).map((r) => ({ sentAtMs: Date.parse(r.sent_at), requester: r.requester }));
  const known = (
    db.prepare("SELECT address, signed_in_at FROM known_sign_in_addresses WHERE user_id = ?").all(userId) as {
      address: string;
      signed_in_at: string;
    }[]
  ).map((r) => ({ address: r.address, signedInAtMs: Date.parse(r.signed_in_at) }));
  if (!maySendSignInMail(sent, requester, known, nowMs)) return false;
  db.prepare("INSERT INTO sign_in_mails (user_id, sent_at, requester) VALUES (?, ?, ?)").run(
    userId,
    now,
    requester,
  );
  return true;
}

/**
 * A successful sign-in from `requester`: the address becomes (or stays) one of the person's known addresses,
 * which the per-recipient mail total does not hold back. Only the newest few are kept per person.
 */
function rememberSignInAddress(deps: ApiDeps, userId: number, requester: string) {
  if (requester === UNKNOWN_REQUESTER) return;
  const { db } = deps;
  db.transaction(() => {
    db.prepare(
      "INSERT INTO known_sign_in_addresses (user_id, address, signed_in_at) VALUES (?, ?, ?) ON CONFLICT (user_id, address) DO UPDATE SET signed_in_at = excluded.signed_in_at",
    ).run(userId, requester, nowIso());
    db.prepare(
      "DELETE FROM known_sign_in_addresses WHERE user_id = ? AND address NOT IN (SELECT address FROM known_sign_in_addresses WHERE user_id = ? ORDER BY signed_in_at DESC LIMIT ?)",
    ).run(userId, userId, KNOWN_ADDRESSES_KEPT);
  })();
}

type CodeRow = { id: number; code_hash: string; attempts: number; expires_at: string };

export function authRoutes(deps: ApiDeps) {
  const { r, db, auth } = sessionRouter(deps);
  dummyPasswordHash(); // computed now, so the first unknown address does not pay for it

  r.get(
    "/users/:email/login-options",
    route((req, res) => {
      const user = findUser(deps, req.params.email);
      if (!user) throw new HttpError(404, { message: "No account found for this email address" });
      const refusal = refusalOf(deps, user);
      if (refusal) return res.json({ items: [], error: refusal });
      const items = [...(user.password_hash ? ["password"] : []), "login_link", "login_code"];
      res.json({ items, error: null });
    }),
  );

  r.post(
    "/auth/login",
    route((req, res) => {
      const body = parse(z.object({ email, password: z.string().min(1, "Password is required") }), req.body);
      const user = findUser(deps, body.email);
      // The same scrypt work whether or not the account exists or has a password: no enumeration by timing.
      const ok = verifyPassword(body.password, user?.password_hash ?? dummyPasswordHash());
      if (!user?.password_hash || !ok) throw unauthorized("Invalid email or password");
      const refusal = refusalOf(deps, user);
      if (refusal) throw refused(refusal);
      rememberSignInAddress(deps, user.id, requesterOf(req));
      startSession(deps, res, user);
    }),
  );

  r.post(
    "/auth/login-code/request",
    asyncRoute(async (req, res) => {
      const body = parse(z.object({ email }), req.body);
      const requester = requesterOf(req);
      requireSignInMailAsk(deps, res, body.email, requester);
      const found = findUser(deps, body.email);
      // Nobody who may not sign in is sent a way to (rule sign-in-by-client-type): the same 204.
      const user = found && !refusalOf(deps, found) ? found : undefined;
      // Beyond the person's mail limits nothing is sent, and the answer is the same 204.
      if (user) {
        // Rendered first, then the code stored and its email written in one transaction (both or neither).
        const fresh = randomCode();
        const mail = await renderEmail(loginCodeEmail(deps.config.webBaseUrl, fresh, CODE_MINUTES));
        db.transaction(() => {
          if (!takeSignInMail(deps, user.id, requester)) return;
          // Earlier codes stay valid (the owner may be typing one); only the oldest beyond a few asked for
          // from the same address is dropped, so a stranger's requests never push out the owner's code.
          db.prepare(
            "INSERT INTO login_codes (user_id, code_hash, requester, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
          ).run(user.id, sha256(fresh), requester, nowIso(), minutesFromNow(CODE_MINUTES));
          db.prepare(
            "DELETE FROM login_codes WHERE user_id = ? AND requester = ? AND id NOT IN (SELECT id FROM login_codes WHERE user_id = ? AND requester = ? ORDER BY id DESC LIMIT ?)",
          ).run(user.id, requester, user.id, requester, LIVE_CODES_KEPT);
          sendMail(deps, { to: user.email, ...mail, code: fresh });
        })();
      }
      res.status(204).end();
    }),
  );

  r.post(
    "/auth/login-code",
    route((req, res) => {
      const body = parse(
        z.object({ email, code: z.string().trim().length(6, "Code must be 6 digits") }),
        req.body,
      );
      const user = findUser(deps, body.email);
      // One code path for known and unknown accounts (user id 0 has no codes): no enumeration by timing.
      // Every live code of the person is a candidate: a newer code does not void the one being typed.
      const rows = db
        .prepare(
          "SELECT * FROM login_codes WHERE user_id = ? AND used_at IS NULL AND expires_at > ? AND attempts < ? ORDER BY id DESC",
        )
        .all(user?.id ?? 0, nowIso(), CODE_MAX_ATTEMPTS) as CodeRow[];
      const given = sha256(body.code);
      let match: CodeRow | undefined;
      // Compared with every candidate (a dummy when there is none): the time does not say which one matched.
      for (const row of rows.length ? rows : [{ id: 0, code_hash: sha256(""), attempts: 0, expires_at: "" }])
        if (timingSafeEqualHex(row.code_hash, given) && row.id) match ??= row;
      if (!user || rows.length === 0) throw unauthorized("Invalid code");
      if (!match) {
        // A wrong guess costs every live code one attempt: several live codes give a guesser no more tries.
        db.prepare(
          "UPDATE login_codes SET attempts = attempts + 1 WHERE user_id = ? AND used_at IS NULL AND expires_at > ?",
        ).run(user.id, nowIso());
        throw unauthorized("Invalid code");
      }
      const refusal = refusalOf(deps, user);
      if (refusal) throw refused(refusal);
      // Signed in: every code of this person is spent, not only the one typed.
      db.prepare("UPDATE login_codes SET used_at = ? WHERE user_id = ? AND used_at IS NULL").run(
        nowIso(),
        user.id,
      );
      rememberSignInAddress(deps, user.id, requesterOf(req));
      startSession(deps, res, user);
    }),
  );

  r.post(
    "/auth/login-link/request",
    asyncRoute(async (req, res) => {
      const body = parse(z.object({ email, next: z.string().max(2000).optional() }), req.body);
      requireSignInMailAsk(deps, res, body.email, requesterOf(req));
      const found = findUser(deps, body.email);
      // Nobody who may not sign in is sent a way to (rule sign-in-by-client-type): the same 204.
      const user = found && !refusalOf(deps, found) ? found : undefined;
      // Beyond the person's mail limits nothing is sent, and the answer is the same 204.
      if (user)
        await mailLinkWithinLimits(
          deps,
          "login_link",
          user,
          requesterOf(req),
          LINK_MINUTES,
          "/login/link",
          (href) => loginLinkEmail(deps.config.webBaseUrl, href, LINK_MINUTES),
          body.next,
        );
      res.status(204).end();
    }),
  );

  r.post(
    "/auth/login-link",
    route((req, res) => {
      const body = parse(z.object({ token: z.string().min(1, "Token is required").max(200) }), req.body);
      const taken = takeToken(deps, "login_link", body.token, true);
      if (!taken.row) throw unauthorized("Invalid token");
      const user = db.prepare("SELECT * FROM users WHERE id = ?").get(taken.row.user_id) as UserRow;
      const refusal = refusalOf(deps, user);
      if (refusal) throw refused(refusal);
      rememberSignInAddress(deps, user.id, requesterOf(req));
      startSession(deps, res, user, { next: taken.row.next });
    }),
  );

  r.post(
    "/auth/password-reset/request",
    asyncRoute(async (req, res) => {
      const body = parse(z.object({ email }), req.body);
      requireSignInMailAsk(deps, res, body.email, requesterOf(req));
      const found = findUser(deps, body.email);
      // Nobody who may not sign in is sent a way to (rule sign-in-by-client-type): the same 204.
      const user = found && !refusalOf(deps, found) ? found : undefined;
      // Beyond the person's mail limits nothing is sent, and the answer is the same 204.
      if (user)
        await mailLinkWithinLimits(
          deps,
          "password_reset",
          user,
          requesterOf(req),
          RESET_MINUTES,
          "/reset-password",
          (href) =>
            passwordResetEmail(deps.config.webBaseUrl, href, RESET_MINUTES, Boolean(user.password_hash)),
        );
      res.status(204).end();
    }),
  );

  r.get(
    "/user/password/token/validate",
    route((req, res) => {
      const { token } = parse(
        z.object({ token: z.string().min(1, "Token is required").max(200) }),
        req.query,
        "query",
      );
      const taken = takeToken(deps, "password_reset", token, false);
      if (!taken.row) throw badRequest(taken.error);
      const refusal = refusalOf(
        deps,
        db.prepare("SELECT * FROM users WHERE id = ?").get(taken.row.user_id) as UserRow,
      );
      if (refusal) throw refused(refusal);
      res.json({ valid: true });
    }),
  );

  r.post(
    "/user/password/reset",
    route((req, res) => {
      const body = parse(
        z.object({
          token: z.string().min(1, "Token is required").max(200),
          password: z.string().min(8, "Password must contain at least 8 characters").max(200),
          confirm_password: z.string(),
        }),
        req.body,
      );
      if (body.password !== body.confirm_password) {
        throw validationError({ body: [{ location: "confirm_password", message: "Passwords must match" }] });
      }
      const passwordHash = hashPassword(body.password);
      // One transaction: the token is spent, the password set, every session of the person ended, and every
      // other way in that was mailed to them (reset links, login links, login codes) spent with it, so a
      // mail read by somebody else before the reset cannot be used after it.
      db.transaction(() => {
        const taken = takeToken(deps, "password_reset", body.token, true);
        if (!taken.row) throw badRequest(taken.error);
        const userId = taken.row.user_id;
        const refusal = refusalOf(
          deps,
          db.prepare("SELECT * FROM users WHERE id = ?").get(userId) as UserRow,
        );
        if (refusal) throw refused(refusal);
        const now = nowIso();
        db.prepare("UPDATE users SET password_hash = ? WHERE id = ?").run(passwordHash, userId);
        db.prepare("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").run(
          now,
          userId,
        );
        db.prepare("UPDATE auth_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL").run(
          now,
          userId,
        );
        db.prepare("UPDATE login_codes SET used_at = ? WHERE user_id = ? AND used_at IS NULL").run(
          now,
          userId,
        );
      })();
      res.json({ message: "Password successfully changed" });
    }),
  );

  r.post(
    "/auth/logout",
    route((req, res) => {
      const token = readSessionCookie(req);
      if (token) db.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ?").run(nowIso(), sha256(token));
      res.setHeader("Set-Cookie", `${SESSION_COOKIE}=; HttpOnly; Path=/; SameSite=Lax; Max-Age=0`);
      res.status(204).end();
    }),
  );

  r.get(
    "/user",
    auth,
    route((_req, res) => {
      res.json(userJson(deps, getAuth(res)));
    }),
  );

  return r;
}
