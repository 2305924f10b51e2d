import type { RequestHandler, Response } from "express";
import type { Auth } from "./auth";
import * as clock from "./clock";
import { sha256 } from "./crypto";
import { type ApiDeps, HttpError, type RunKeyed } from "./http";

/**
 * Idempotency keys (docs/api-contract.md, ADR 0010), as the IETF draft "The Idempotency-Key HTTP Header Field"
 * and Stripe describe them: a write sent with `Idempotency-Key` is answered once; its answer (status, content
 * type, body) is stored with the key IN THE SAME TRANSACTION as the write, so a write that committed always has
 * its answer, even when the process dies before sending it. A repeat of the request (same key, same method,
 * path and body) within a day gets that answer again (`Idempotent-Replayed: true`) and acts no further; the
 * key with another request is refused with 422. Keys belong to the signed-in user and the client the session
 * acts for: another user's key finds nothing. Only accepted writes (2xx) are kept: an error changed nothing,
 * so its repeat simply runs again. A call without a session (sign-in and token calls) ignores the header.
 */

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
/** How long a key and its answer are kept. */
export const KEY_TTL_MS = 24 * 3_600_000;
export const KEY_REUSED =
  "This Idempotency-Key was already used for another request; send a new key for a different request";
export const KEY_INVALID = "Idempotency-Key must be 1 to 255 visible ASCII characters";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The key a header carries: an sf-string (`"…"`, the IETF draft's form) or the bare value (Stripe's); null
 * without a header, "invalid" when it is empty, too long or not visible ASCII.
 */
export function parseIdempotencyKey(raw: string | undefined): string | null | "invalid" {
  if (raw === undefined) return null;
  const quoted = /^"(.*)"$/.exec(raw.trim());
  const key = quoted ? quoted[1].replace(/\\(["\\])/g, "$1") : raw.trim();
  return /^[\x21-\x7e]{1,255}$/.test(key) ? key : "invalid";
}

/** Whose key it is: the user and the client their session acts for (staff impersonating one). */
export const keyOwner = (auth: Pick<Auth, "user" | "clientId">) => `${auth.user.id}:${auth.clientId ?? "-"}`;

type KeyRow = { fingerprint: string; status: number; content_type: string | null; body: string };

/**
 * Middleware for every write: with an `Idempotency-Key`, the route's handler (`route()`, api/lib/http.ts) runs
 * through `runKeyed`, once the session is known. Only a synchronous handler (`route()`: better-sqlite3) runs
 * so, the lookup, the write and the stored answer in one transaction, and two repeats of one key never
 * interleave; an `asyncRoute()` refuses a keyed write with 422 before it runs (KEY_NOT_HONOURED).
 */
export function idempotencyKeys(deps: ApiDeps): RequestHandler {
  const { db } = deps;
  return (req, res, next) => {
    if (!WRITES.has(req.method)) return next();
    const key = parseIdempotencyKey(req.get(IDEMPOTENCY_KEY_HEADER));
    if (key === null) return next();
    if (key === "invalid") {
      res.status(400).json({ message: KEY_INVALID });
      return;
    }
    const fingerprint = sha256(JSON.stringify([req.method, req.originalUrl, req.body ?? null]));
    const runKeyed: RunKeyed = (run) => {
      const auth = res.locals.auth as Auth | undefined;
      if (!auth) return run();
      const owner = keyOwner(auth);
      const since = new Date(clock.nowMs() - KEY_TTL_MS).toISOString();
      const seen = db
        .prepare(
          "SELECT fingerprint, status, content_type, body FROM idempotency_keys WHERE owner = ? AND key = ? AND created_at > ?",
        )
        .get(owner, key, since) as KeyRow | undefined;
      if (seen) {
        if (seen.fingerprint !== fingerprint) throw new HttpError(422, { message: KEY_REUSED });
        replay(res, seen);
        return;
      }
      // The handler's answer is held back until its transaction (with the key) has committed.
      const end = res.end;
      let answer: { status: number; args: unknown[] } | undefined;
      res.end = function (this: Response, ...args: unknown[]) {
        answer = { status: res.statusCode, args };
        return res;
      } as Response["end"];
      try {
        db.transaction(() => {
          const result = run();
          if (result instanceof Promise) {
            // Only a cast gets an async handler here (route()'s type refuses one; asyncRoute() refuses the key):
            // its promise is observed, so its failure is logged instead of crashing the worker.
            result.catch((err: unknown) =>
              deps.log("api error", { err: err instanceof Error ? err.message : String(err) }),
            );
            throw new Error("a write with an Idempotency-Key must answer synchronously");
          }
          if (!answer || answer.status < 200 || answer.status >= 300) return;
          const chunk = answer.args[0];
          const body =
            chunk === undefined || typeof chunk === "function"
              ? ""
              : Buffer.isBuffer(chunk)
                ? chunk.toString("utf8")
                : String(chunk);
          const contentType = res.getHeader("content-type");
          db.prepare("DELETE FROM idempotency_keys WHERE created_at <= ?").run(since);
          db.prepare(
            "INSERT INTO idempotency_keys (owner, key, fingerprint, status, content_type, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
          ).run(
            owner,
            key,
            fingerprint,
            answer.status,
            contentType === undefined ? null : String(contentType),
            body,
            clock.nowIso(),
          );
        })();
      } finally {
        res.end = end;
      }
      if (answer) end.apply(res, answer.args as Parameters<Response["end"]>);
    };
    res.locals.runKeyed = runKeyed;
    next();
  };
}

/** The first answer again, marked as a replay. */
function replay(res: Response, row: KeyRow) {
  res.status(row.status);
  res.setHeader("Idempotent-Replayed", "true");
  if (row.content_type) res.setHeader("Content-Type", row.content_type);
  if (row.body) res.end(row.body);
  else res.end();
}
