import { createHash } from "node:crypto";
import { SUBMISSION_ID_FIELD } from "~/ui/submission-id";
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { commitSession, getSession, type SessionUser, type Toast } from "~/server/upstream/session.server";
import { reportFallback, sharedRedis, type SharedRedis } from "~/server/ops/redis.server";
import { getApi } from "~/server/upstream/upstream.server";

/**
 * Idempotent form submissions (ADR 0010): a form rendered by the server carries a random submission id; the
 * first processing of (user, form, id, fields) runs and its outcome is remembered for a few minutes; a repeat
 * (double click, browser resubmit, a second instance behind the load balancer) gets that outcome without
 * calling the upstream again. Two repeats at the same moment: the first claims the key atomically
 * (SET NX), the other waits for its outcome.
 */

/** What the store holds for a key: a submission being processed, or the outcome of one that finished. */
export type Stored = { state: "pending" } | { state: "done"; outcome: unknown };

export interface IdempotencyStore {
  /** Marks the key in progress if nobody has it (atomic); false when it is pending or done already. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  read(key: string): Promise<Stored | null>;
  /** Replaces the in-progress mark with the outcome, kept for `ttlMs`. */
  finish(key: string, outcome: unknown, ttlMs: number): Promise<void>;
  /** Forgets the key (the processing failed and may be retried with the same id). */
  release(key: string): Promise<void>;
}

/** In memory, for one instance: entries expire after their TTL, and the oldest go first beyond `max`. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, { value: Stored; expires: number }>();
  constructor(
    readonly max = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get size() {
    return this.entries.size;
  }

  private live(key: string) {
    const e = this.entries.get(key);
    if (e && e.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  private put(key: string, value: Stored, ttlMs: number) {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + ttlMs });
    // Map keeps insertion order: drop expired entries, then the least recently written ones.
    if (this.entries.size > this.max) {
      const now = this.now();
      for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
      for (const k of this.entries.keys()) {
        if (this.entries.size <= this.max) break;
        this.entries.delete(k);
      }
    }
  }

  async claim(key: string, ttlMs: number) {
    if (this.live(key)) return false;
    this.put(key, { state: "pending" }, ttlMs);
    return true;
  }

  async read(key: string) {
    return this.live(key)?.value ?? null;
  }

  async finish(key: string, outcome: unknown, ttlMs: number) {
    this.put(key, { state: "done", outcome }, ttlMs);
  }

  async release(key: string) {
    this.entries.delete(key);
  }
}

/** Shared by every instance through Redis (REDIS_URL): SET NX PX claims, values are JSON with a TTL. */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: Pick<SharedRedis, "run">,
    private readonly prefix = "idem:",
  ) {}

  async claim(key: string, ttlMs: number) {
    const ok = await this.redis.run((c) =>
      c.set(this.prefix + key, JSON.stringify({ state: "pending" }), { NX: true, PX: ttlMs }),
    );
    return ok === "OK";
  }

  async read(key: string) {
    const raw = await this.redis.run((c) => c.get(this.prefix + key));
    return typeof raw === "string" ? (JSON.parse(raw) as Stored) : null;
  }

  async finish(key: string, outcome: unknown, ttlMs: number) {
    await this.redis.run((c) =>
      c.set(this.prefix + key, JSON.stringify({ state: "done", outcome }), { PX: ttlMs }),
    );
  }

  async release(key: string) {
    await this.redis.run((c) => c.del(this.prefix + key));
  }
}

/**
 * The store used with REDIS_URL: every claim and outcome is kept in this instance's memory and in Redis.
 *
 * What the fallback must never do: run one submission twice on one instance. So memory is asked first and
 * always written: a submission this instance has claimed or finished is known here whatever Redis does
 * (it went away mid-submission, or came back empty), and a repeat on this instance waits for it or gets its
 * outcome. Redis adds what other instances claimed. While Redis is unavailable a claim stands on memory alone:
 * a repeat sent to another instance during the outage may run there too, the price of staying up (the
 * alternative, refusing every submission until Redis returns, loses them all).
 */
export class FallbackIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly shared: IdempotencyStore,
    private readonly local: IdempotencyStore,
    private readonly onFallback: (error: unknown) => void,
  ) {}

  async claim(key: string, ttlMs: number) {
    if (!(await this.local.claim(key, ttlMs))) return false;
    try {
      if (await this.shared.claim(key, ttlMs)) return true;
      // Another instance has it: forget the local mark, so read() asks Redis for its progress.
      await this.local.release(key);
      return false;
    } catch (error) {
      this.onFallback(error);
      return true;
    }
  }

  async read(key: string) {
    const mine = await this.local.read(key);
    if (mine) return mine;
    try {
      return await this.shared.read(key);
    } catch (error) {
      this.onFallback(error);
      return null;
    }
  }

  async finish(key: string, outcome: unknown, ttlMs: number) {
    await this.local.finish(key, outcome, ttlMs);
    try {
      await this.shared.finish(key, outcome, ttlMs);
    } catch (error) {
      this.onFallback(error);
    }
  }

  async release(key: string) {
    await this.local.release(key);
    try {
      await this.shared.release(key);
    } catch (error) {
      this.onFallback(error);
    }
  }
}

let store: IdempotencyStore | undefined;

/** The process's store: Redis with this instance's memory as the fallback when REDIS_URL is set, otherwise memory. */
export function idempotencyStore(): IdempotencyStore {
  if (store) return store;
  const redis = sharedRedis();
  store = redis
    ? new FallbackIdempotencyStore(
        new RedisIdempotencyStore(redis),
        new MemoryIdempotencyStore(),
        reportFallback("idempotency"),
      )
    : new MemoryIdempotencyStore();
  return store;
}

/** For tests: use this store instead. */
export function setIdempotencyStore(s: IdempotencyStore | undefined) {
  store = s;
}

/** How long an outcome is remembered, and how long a submission may stay in progress before it is given up. */
export const REMEMBER_MS = 10 * 60_000;
export const PENDING_MS = 2 * 60_000;

/**
 * The store key of one submission: the user (who cannot replay another's), the form, its submission id and its
 * other fields (a repeat sends the same; a different change under a reused id is a new submission). Hashed, so
 * no form content sits in Redis.
 */
export function submissionKey(
  owner: string,
  scope: string,
  submissionId: string,
  form: FormData | URLSearchParams,
) {
  const fields = [...form.entries()]
    .filter(([k]) => k !== SUBMISSION_ID_FIELD)
    .map(([k, v]) => [k, typeof v === "string" ? v : `file:${v.name}:${v.size}`])
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  const hash = createHash("sha256")
    .update(JSON.stringify([owner, scope, submissionId, fields]))
    .digest("base64url");
  return `${scope}:${hash}`;
}

/** The store (the process's by default) and how long a repeat waits for the first, polling every `pollMs`. */
export type OnceOptions = { store?: IdempotencyStore; waitMs?: number; pollMs?: number };

export class SubmissionInProgressError extends Error {
  readonly name = "SubmissionInProgressError";
}

/**
 * Runs `run` once per submission key. `remember(outcome)` says whether the outcome is final (kept and replayed
 * to repeats) or may be retried with the same id (released: validation errors, upstream failures). A repeat
 * while the first is in progress waits for it, then answers as it did; if the first released the key (or its
 * mark expired), the repeat runs itself. A key still pending after `waitMs` raises SubmissionInProgressError.
 * Without a key (a form without a submission id) `run` simply runs.
 */
export async function once<T>(
  key: string | null,
  run: () => Promise<T>,
  remember: (outcome: T) => boolean,
  opts: OnceOptions = {},
): Promise<T> {
  if (!key) return run();
  const s = opts.store ?? idempotencyStore();
  // By default a repeat waits as long as a submission may stay in progress (then the mark has expired).
  const deadline = Date.now() + (opts.waitMs ?? PENDING_MS + 1_000);
  for (;;) {
    if (await s.claim(key, PENDING_MS)) {
      let outcome: T;
      try {
        outcome = await run();
      } catch (error) {
        await s.release(key);
        throw error;
      }
      if (remember(outcome)) await s.finish(key, outcome, REMEMBER_MS);
      else await s.release(key);
      return outcome;
    }
    const seen = await s.read(key);
    if (seen?.state === "done") return seen.outcome as T;
    if (Date.now() > deadline)
      throw new SubmissionInProgressError("this submission is still being processed");
    if (seen?.state === "pending") await new Promise((r) => setTimeout(r, opts.pollMs ?? 50));
  }
}

/**
 * What an idempotent action answers, as plain data so a repeat can be answered the same way. Only a redirect
 * carries a flash toast (read by the page it leads to); a reply is its own page and says what happened in
 * its body: a flash set on it would only show on whatever page the user opens next.
 */
export type ActionOutcome<R> =
  { kind: "redirect"; to: string; toast?: Toast } | { kind: "reply"; status: number; body: R };

/** The outcome as the response: the same redirect and flash toast, or the same reply and status. */
export async function answer<R>(request: Request, outcome: ActionOutcome<R>) {
  if (outcome.kind === "reply") return data(outcome.body, { status: outcome.status });
  const headers = new Headers();
  if (outcome.toast) {
    const session = await getSession(request);
    session.flash("toast", outcome.toast);
    headers.append("Set-Cookie", await commitSession(session));
  }
  return redirect(outcome.to, { headers });
}

/** Whose submission it is: the signed-in user, and the client they act for (staff impersonating). */
export const ownerOf = (user: Pick<SessionUser, "id" | "clientId" | "isImpersonating">) =>
  `${user.id}:${user.clientId ?? "-"}:${user.isImpersonating ? "i" : "-"}`;

/** A redirect is a finished submission (its change was accepted): remembered. Replies (errors) may be retried. */
export const rememberRedirects = (o: ActionOutcome<unknown>) => o.kind === "redirect";

/**
 * The request without the browser's abort signal, for the api client of an idempotent action: once a
 * submission is claimed it runs to its end (the upstream time-out still applies) even when the browser
 * drops the request for a repeat (a second click cancels the first), so the repeat finds its outcome.
 */
export const detached = (request: Request) => new Request(request.url, { headers: request.headers });

/** Whose form it is, which form, and the fields it posted (the submission id among them, when it has one). */
export type IdempotentSubmission = {
  user: Pick<SessionUser, "id" | "clientId" | "isImpersonating">;
  scope: string;
  form: FormData;
  /** The parsed `submissionId` field; absent or malformed: the change simply runs (nothing to recognise). */
  submissionId: string | null | undefined;
};

/**
 * An action's change that runs once per submission (ADR 0010), for a form with a `submissionId` field: its key
 * is the user, the form's scope, the id and the other fields (`submissionKey`); the change gets the user's api
 * client `detached` from the browser's abort signal, so a claimed submission runs to its end for its repeats;
 * a redirect (the change was accepted) is remembered and given to repeats, a reply (an error) or a thrown error
 * frees the id for a retry; the outcome is answered as a response (`answer`: the same redirect and toast, or
 * the same reply and status).
 */
export async function idempotentAction<R>(
  { request, context }: { request: Request; context?: AppLoadContext },
  submission: IdempotentSubmission,
  change: (api: ApiClient) => Promise<ActionOutcome<R>>,
  opts: OnceOptions = {},
) {
  const { user, scope, form, submissionId } = submission;
  const key = submissionId ? submissionKey(ownerOf(user), scope, submissionId, form) : null;
  // Every write of the change carries the submission id as its Idempotency-Key: a submission resent after an
  // answer that never came (the api applied it, then died) is answered by the api with its first answer.
  const api = await getApi(detached(request), context, { submissionId: key ? submissionId : null });
  const outcome = await once(key, () => change(api), rememberRedirects, opts);
  return answer(request, outcome);
}
