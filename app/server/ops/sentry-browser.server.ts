import type { NextFunction, Request, Response } from "express";
import { rateLimit } from "express-rate-limit";
import { z } from "zod";
import { makeRateLimitStore } from "./rate-limit.server";
import { captureBrowserError, type RouteOf } from "./sentry.server";

/** Where the browser listener (app/ui/client-errors.ts) posts; same origin only, no CSRF token needed. */
export const CLIENT_ERRORS_PATH = "/client-errors";
/** The largest report accepted (a message and a stack trace). */
export const CLIENT_ERROR_MAX_BYTES = 8 * 1024;

const reportSchema = z.object({
  kind: z.enum(["error", "unhandledrejection", "render"]),
  name: z.string().max(100).optional(),
  message: z.string().min(1).max(1000),
  stack: z.string().max(6000).optional(),
  page: z.string().startsWith("/").max(2000),
});

/**
 * The BFF endpoint for browser errors: a bounded JSON body from a same-origin page (`Sec-Fetch-Site`, or an
 * `Origin` of this host), rate-limited per client address, forwarded through the server SDK. It answers 204
 * whether or not reporting is on, so the page learns nothing; 403 cross-site, 413 too large, 400 malformed,
 * 429 over the limit.
 */
export function clientErrorEndpoint({
  limit = 30,
  windowMs = 60_000,
  routeOf,
}: { limit?: number; windowMs?: number; routeOf?: RouteOf } = {}) {
  const perIp = rateLimit({
    windowMs,
    limit,
    standardHeaders: "draft-7",
    legacyHeaders: false,
    store: makeRateLimitStore("client-errors"),
    handler: (_req, res) => {
      res.status(429).type("text/plain").send("Too Many Requests");
    },
  });
  const handle = (req: Request & { rawBody?: Buffer }, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    if (!isSameOrigin(req)) return void res.status(403).type("text/plain").send("Forbidden");
    const body = req.rawBody ?? Buffer.alloc(0);
    if (body.length > CLIENT_ERROR_MAX_BYTES)
      return void res.status(413).type("text/plain").send("Payload Too Large");
    if (!/^application\/json\b/i.test(req.get("content-type") ?? ""))
      return void res.status(415).type("text/plain").send("Unsupported Media Type");
    let parsed: z.SafeParseReturnType<unknown, z.infer<typeof reportSchema>>;
    try {
      parsed = reportSchema.safeParse(JSON.parse(body.toString("utf8")));
    } catch {
      return void res.status(400).type("text/plain").send("Bad Request");
    }
    if (!parsed.success) return void res.status(400).type("text/plain").send("Bad Request");
    captureBrowserError(parsed.data, req, routeOf);
    res.status(204).end();
  };
  return [
    (req: Request, res: Response, next: NextFunction) =>
      isSameOrigin(req) ? perIp(req, res, next) : handle(req, res),
    handle,
  ];
}

/** Only the app's own pages: a fetch from them says `Sec-Fetch-Site: same-origin`, or (older browsers) its Origin. */
function isSameOrigin(req: Request) {
  const site = req.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = req.get("origin");
  if (!origin) return false;
  try {
    return new URL(origin).host === req.get("host");
  } catch {
    return false;
  }
}
