import { Readable } from "node:stream";
import type { RequestHandler } from "express";
import { isApiError } from "./api-error";
import { apiBaseUrl, getConfig } from "~/server/config.server";
import { createApiClient } from "./api-client.server";
import { upstreamObservers } from "~/server/ops/metrics.server";
import { REQUEST_ID_HEADER } from "~/server/http/request-id.server";
import { loginRedirectUrl } from "~/server/safe-redirect";
import { sessionStorage } from "./session.server";

/** The only upstream paths the browser may open directly: file downloads. */
const ALLOWED: RegExp[] = [
  /^\/bill-statement\/\d{1,12}\/download$/,
  /^\/client\/\d{1,12}\/bill-statements\/export-csv$/,
];

const PASS_HEADERS = ["content-type", "content-disposition", "content-length", "last-modified"];

export type DemoFileResolver = (upstreamPath: string) => string | null;

/**
 * The answer to an `/api/` path that is not an allowed download (rule api-unknown-404, docs/rules.md): a 404, not
 * the spec's redirect of unknown paths to the index. A browser (it asks for HTML) gets a page that says so and
 * links to the start page; a script, a monitor or a download gets the plain status.
 */
export function notFoundPage(message: string) {
  const text = message.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${text} · EnergyOps</title></head>` +
    `<body><main><h1>${text}</h1><p><a href="/">Go to the start page</a></p></main></body></html>`
  );
}

/**
 * `/api/*` passthrough (GET only): streams an allowed upstream download through with the user's upstream
 * session. Anything else is refused. In demo mode `demoFile` may swap a real file for a sample.
 */
export function apiPassthrough(
  opts: { demoFile?: DemoFileResolver; notFoundMessage?: string } = {},
): RequestHandler {
  return async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET");
      res.status(405).type("text/plain").send("Method Not Allowed");
      return;
    }
    const upstreamPath = req.path;
    if (!ALLOWED.some((re) => re.test(upstreamPath))) {
      res.status(404);
      if (opts.notFoundMessage && req.accepts(["text/plain", "text/html"]) === "text/html")
        res.type("text/html").send(notFoundPage(opts.notFoundMessage));
      else res.type("text/plain").send("Not Found");
      return;
    }
    const session = await sessionStorage().getSession(req.headers.cookie);
    const user = session.get("user");
    const apiSession = session.get("apiSession");
    const fullUrl = `${req.protocol}://${req.get("host")}${req.originalUrl}`;
    if (!user || !apiSession) {
      res.redirect(302, loginRedirectUrl(fullUrl));
      return;
    }
    res.locals.userId = user.id;
    if (user.isDemoMode && opts.demoFile) {
      const file = opts.demoFile(upstreamPath);
      if (file) {
        res.setHeader("Cache-Control", "private, no-store");
        res.download(file);
        return;
      }
    }
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const cfg = getConfig();
    const requestId = req.headers[REQUEST_ID_HEADER];
    const client = createApiClient({
      ...upstreamObservers(typeof requestId === "string" ? requestId : undefined),
      baseUrl: apiBaseUrl(cfg),
      apiSession,
      timeoutMs: cfg.UPSTREAM_TIMEOUT_MS,
      signal: controller.signal,
    });
    try {
      const upstream = await client.raw(upstreamPath);
      res.status(upstream.status);
      for (const h of PASS_HEADERS) {
        const v = upstream.headers.get(h);
        if (v) res.setHeader(h, v);
      }
      res.setHeader("Cache-Control", "private, no-store");
      if (!upstream.body || req.method === "HEAD") {
        res.end();
        return;
      }
      Readable.fromWeb(upstream.body as never)
        .on("error", () => res.destroy())
        .pipe(res);
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        res.redirect(302, loginRedirectUrl(fullUrl));
        return;
      }
      const status = isApiError(error) && error.status >= 400 && error.status < 600 ? error.status : 502;
      if (!res.headersSent)
        res
          .status(status === 404 ? 404 : status)
          .type("text/plain")
          .send(status === 404 ? "Not Found" : "The file could not be downloaded. Please try again.");
    }
  };
}
