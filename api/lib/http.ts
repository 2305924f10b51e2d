import type { NextFunction, Request, Response, RequestHandler } from "express";
import { z } from "zod";
import type { DB } from "../db";

export type ApiConfig = {
  /** Fixed delay added to every answer (benchmarks). */
  latencyMs: number;
  /** Running with the seeded demo data (GET /dev/outbox needs it too, with `testHooks` or `devOutbox`). */
  demoData: boolean;
  /** Origin of the web app, for links in emails. */
  webBaseUrl: string;
  staffEmailDomain: string;
  thermostatActionDelayMs: number;
  /** How long the simulated utility-data provider takes to settle a connection. */
  utilityProviderDelayMs: number;
  quiet: boolean;
  /** Where the api's clock starts (an ISO instant; it then advances in real time). Unset: the machine's clock. */
  clockStart?: string;
  /** ENABLE_TEST_HOOKS: enables POST /dev/reset (api/routes/dev.ts). Off unless the test servers turn it on. */
  testHooks: boolean;
  /** API_DEV_OUTBOX: serves GET /dev/outbox without the other test hooks (off by default; never with `smtp`). */
  devOutbox?: boolean;
  /** API_EXTRA_LOCATIONS: more buildings for the demo client, seeded after the demo (api/db/seed/extra-locations.ts). */
  extraLocations: number;
  /**
   * SEED_CACHE_DIR: where seeded databases are kept and reused, keyed by the seed's inputs
   * (api/db/seed/snapshot.ts). Test runs only; unset (the default), every empty database is seeded.
   */
  seedCacheDir?: string;
  /** NOTIFICATION_INTERVAL_MS: how often the notification scheduler runs (api/mail/scheduler.ts); 0: off. */
  notificationIntervalMs: number;
  /**
   * SMTP_URL, MAIL_FROM, MAIL_REPLY_TO: the mail server every email is delivered through (api/mail/delivery.ts).
   * Unset, emails stay in the outbox table (the demo's outbox page).
   */
  smtp?: SmtpConfig;
  /** The utility-data provider (api/config.ts's ARCADIA_*). `apiUrl` null: the simulator on this api's port. */
  arcadia: ArcadiaConfig;
};

export type ArcadiaConfig = {
  apiUrl: string | null;
  clientId: string;
  clientSecret: string;
  env: "sandbox" | "production";
  webhookSecret: string;
};

export type SmtpConfig = {
  /** `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://…:465` (TLS from the start). */
  url: string;
  /** The From of every email: `EnergyOps <alerts@example.com>` or a bare address. */
  from: string;
  replyTo?: string;
};

export type ApiDeps = {
  db: DB;
  config: ApiConfig;
  log: (msg: string, data?: Record<string, unknown>) => void;
};

type Param = { location: string; message: string };

/** An answer other than 2xx; the body is exactly what the contract says (`{message}` or a validation body). */
export class HttpError extends Error {
  constructor(
    public status: number,
    public body: unknown,
  ) {
    super(typeof body === "object" && body && "message" in body ? String(body.message) : `HTTP ${status}`);
  }
}

export const notFound = () => new HttpError(404, { message: "Object Not Found Matching Id" });
export const forbidden = () => new HttpError(403, { message: "Forbidden" });
export const badRequest = (message: string) => new HttpError(400, { message });

export function validationError(params: { body?: Param[]; path?: Param[]; query?: Param[] }) {
  return new HttpError(422, {
    message: "Validation error",
    body_params: params.body ?? [],
    path_params: params.path ?? [],
    query_params: params.query ?? [],
  });
}

/** Parses part of a request with Zod; a failure answers the contract's validation body naming each field. */
export function parse<S extends z.ZodTypeAny>(
  schema: S,
  data: unknown,
  where: "body" | "path" | "query" = "body",
): z.infer<S> {
  const result = schema.safeParse(data ?? {});
  if (result.success) return result.data;
  const params = result.error.issues.map((i) => ({
    location: i.path.length ? i.path.join(".") : where,
    message: i.message,
  }));
  throw validationError({ [where]: params });
}

/** What a synchronous handler may return: anything but a promise (an async handler is an `asyncRoute`). */
export type SyncAnswer = void | undefined | null | Response | boolean;

/** Runs a route's handler under the request's Idempotency-Key (set on `res.locals.runKeyed`, api/lib/idempotency.ts). */
export type RunKeyed = (run: () => unknown) => unknown;

/** The 422 for an Idempotency-Key on a write whose handler cannot answer inside one transaction. */
export const KEY_NOT_HONOURED =
  "This request cannot be made idempotent: send it again without an Idempotency-Key";

/**
 * A synchronous handler (better-sqlite3: its reads and writes are one transaction), so it can honour an
 * Idempotency-Key: a write sent with one runs through the key's `runKeyed` (api/lib/idempotency.ts), once, with
 * its answer stored in its transaction. The type refuses a handler that returns a promise (write it with
 * `asyncRoute`); a thrown error reaches the error middleware.
 */
export const route =
  (fn: (req: Request, res: Response) => SyncAnswer): RequestHandler =>
  (req, res, next) => {
    try {
      const runKeyed = res.locals.runKeyed as RunKeyed | undefined;
      const result: unknown = runKeyed ? runKeyed(() => fn(req, res)) : fn(req, res);
      // A promise that got past the type (a cast): observed, so its failure answers instead of killing the worker.
      if (result instanceof Promise) result.catch(next);
    } catch (err) {
      next(err);
    }
  };

/**
 * An asynchronous handler (it awaits something: rendering an email, the provider, a PDF). Its writes cannot share
 * one transaction with the stored answer of an Idempotency-Key, so a write sent with a key is refused with 422
 * before the handler runs: a key is honoured or refused, never half-applied. The
 * handler's promise is always observed: its failure reaches the error middleware.
 */
export const asyncRoute =
  (fn: (req: Request, res: Response) => Promise<unknown>): RequestHandler =>
  (req, res, next) => {
    if (res.locals.runKeyed) {
      next(new HttpError(422, { message: KEY_NOT_HONOURED }));
      return;
    }
    Promise.resolve()
      .then(() => fn(req, res))
      .catch(next);
  };

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(75),
});

export function paged<T>(items: T[], page: number, size: number) {
  return { items: items.slice((page - 1) * size, page * size), total: items.length, page, size };
}

/**
 * A request body the body parsers could not read (their errors carry a `type`), answered as the client's fault
 *: over the limit 413, an encoding or charset not taken 415, malformed or cut short 400.
 * Null for any other error.
 */
export function bodyError(err: unknown): { status: number; message: string } | null {
  if (!err || typeof err !== "object" || err instanceof HttpError) return null;
  switch ("type" in err ? err.type : undefined) {
    case "entity.too.large":
      return { status: 413, message: "Request body too large" };
    case "encoding.unsupported":
      return { status: 415, message: "Unsupported content encoding" };
    case "charset.unsupported":
      return { status: 415, message: "Unsupported charset" };
    case "entity.parse.failed":
      return { status: 400, message: "Malformed JSON body" };
    case "request.aborted":
    case "request.size.invalid":
    case "entity.verify.failed":
      return { status: 400, message: "Unreadable request body" };
  }
  // Any other error of a body parser with a client status (a broken gzip stream, marked `expose`): the
  // client's fault too.
  const status = "status" in err && typeof err.status === "number" ? err.status : 0;
  const exposed = "expose" in err && err.expose === true;
  return exposed && status >= 400 && status < 500
    ? { status: 400, message: "Unreadable request body" }
    : null;
}

export function errorMiddleware(deps: ApiDeps) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof HttpError) {
      res.status(err.status).json(err.body);
      return;
    }
    const body = bodyError(err);
    if (body) {
      res.status(body.status).json({ message: body.message });
      return;
    }
    deps.log("api error", { err: err instanceof Error ? err.message : String(err) });
    res.status(500).json({ message: "Internal Server Error" });
  };
}
