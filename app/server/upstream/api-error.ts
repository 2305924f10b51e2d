/** Every upstream failure, typed (rule upstream-error-catalogue, docs/rules.md). `message` follows the error catalogue. */
export type ApiErrorKind =
  | "forbidden"
  | "unauthorized"
  | "http"
  | "validation"
  | "empty-response"
  | "errmsg"
  | "empty-body"
  | "unparseable"
  | "contract"
  | "timeout"
  | "network"
  | "aborted";

export class ApiError extends Error {
  readonly name = "ApiError";
  /**
   * A write that got no answer although it may have reached the api (the connection closed after it was sent,
   * the time-out): whether it took effect is unknown. Set by the api client; false for every other failure.
   */
  maybeApplied = false;
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    readonly status: number,
    /** Validation errors by field location (camelCase), for showing next to the form field. */
    readonly fieldErrors: Record<string, string[]> = {},
    /**
     * What the answer's body says besides its message: `error`, a short code (a sign-in refused by client
     * type says `mycor` or `resi`), and `retry_after_seconds` (a refusal that says when to ask again).
     */
    readonly details: ApiErrorDetails = {},
  ) {
    super(message);
  }
}

export type ApiErrorDetails = { code?: string; retryAfterSeconds?: number };

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** The `error` code and `retry_after_seconds` of an error body, when it has them (anything else: none). */
function detailsOf(body: unknown): ApiErrorDetails {
  if (!body || typeof body !== "object") return {};
  const b = body as Record<string, unknown>;
  const details: ApiErrorDetails = {};
  if (typeof b.error === "string" && /^[a-z_]{1,32}$/.test(b.error)) details.code = b.error;
  const wait = b.retry_after_seconds;
  if (typeof wait === "number" && Number.isInteger(wait) && wait > 0 && wait <= 86_400)
    details.retryAfterSeconds = wait;
  return details;
}

const parsedOrNull = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

type Param = { location?: unknown; message?: unknown };

/** Turns a non-success answer's status and body text into the ApiError the catalogue names. */
export function errorFromResponse(
  status: number,
  text: string,
  camel: (k: string) => string = (k) => k,
): ApiError {
  if (status === 403) return new ApiError("Forbidden", "forbidden", 403, {}, detailsOf(parsedOrNull(text)));
  if (!text.trim()) return new ApiError(`empty response ${status}`, "empty-response", status);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new ApiError("Could not parse API Error Message", "unparseable", status);
  }
  if (!body || typeof body !== "object")
    return new ApiError("Could not parse API Error Message", "unparseable", status);
  const b = body as Record<string, unknown>;
  const lists = [
    "body_params",
    "path_params",
    "query_params",
    "bodyParams",
    "pathParams",
    "queryParams",
  ].filter((k) => k in b);
  if (lists.length > 0) {
    try {
      const params: Param[] = lists.flatMap((k) => {
        const list = b[k];
        if (!Array.isArray(list)) throw new Error("not a list");
        return list as Param[];
      });
      const fieldErrors: Record<string, string[]> = {};
      const parts = params.map((p) => {
        if (typeof p?.location !== "string" || typeof p?.message !== "string") throw new Error("bad param");
        const field = camel(p.location);
        (fieldErrors[field] ??= []).push(p.message);
        return `${p.location}: ${p.message}`;
      });
      if (parts.length === 0 && typeof b.message === "string") {
        return new ApiError(b.message, status === 401 ? "unauthorized" : "http", status);
      }
      return new ApiError(parts.join(", "), "validation", status, fieldErrors);
    } catch {
      return new ApiError("Could not read error body params", "unparseable", status);
    }
  }
  if (typeof b.message === "string")
    return new ApiError(b.message, status === 401 ? "unauthorized" : "http", status, {}, detailsOf(b));
  if (typeof b.detail === "string")
    return new ApiError(b.detail, status === 401 ? "unauthorized" : "http", status);
  return new ApiError("Could not parse API Error Message", "unparseable", status);
}

export type Settled<T> = { ok: true; data: T } | { ok: false; error: ApiError };

/**
 * Awaits an upstream call and keeps an ApiError as a value (for a screen's error state).
 * Anything else (a thrown redirect on 401, a bug) still throws.
 */
export async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, data: await promise };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error };
    throw error;
  }
}
