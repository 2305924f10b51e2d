import { data } from "@remix-run/node";
import * as Sentry from "@sentry/node";
import { describe, expect, it } from "vitest";
import { ApiError, errorFromResponse } from "~/server/upstream/api-error";
import { parseConfig } from "~/server/config.server";
import { scrubEvent } from "~/server/ops/sentry-scrub.server";
import {
  expressErrorStatus,
  initErrorReporting,
  releaseName,
  shouldReport,
} from "~/server/ops/sentry.server";
import { installClientErrorReporting } from "~/ui/client-errors";

describe("what is reported", () => {
  it("unexpected errors and upstream outages", () => {
    expect(shouldReport(new Error("boom"))).toBe(true);
    expect(shouldReport(new ApiError("empty response 500", "empty-response", 500))).toBe(true);
    expect(shouldReport(new ApiError("Got empty body", "empty-body", 200))).toBe(true);
    expect(shouldReport(new Response(null, { status: 500 }))).toBe(true);
    expect(shouldReport(data({ message: "upstream down" }, { status: 503 }))).toBe(true);
  });

  it("not 'Forbidden', 'Object Not Found Matching Id', aborted requests, 404s or a route's own answers", () => {
    expect(shouldReport(errorFromResponse(403, ""))).toBe(false);
    expect(shouldReport(new Error("Forbidden"))).toBe(false);
    expect(
      shouldReport(errorFromResponse(404, JSON.stringify({ message: "Object Not Found Matching Id" }))),
    ).toBe(false);
    expect(shouldReport(new Error("Object Not Found Matching Id"))).toBe(false);
    expect(shouldReport(new ApiError("The operation was aborted", "aborted", 0))).toBe(false);
    expect(shouldReport(new DOMException("aborted", "AbortError"))).toBe(false);
    expect(shouldReport(new Error("anything"), true)).toBe(false);
    expect(shouldReport(new Response(null, { status: 404 }))).toBe(false);
    expect(shouldReport(new Response(null, { status: 302 }))).toBe(false);
    expect(shouldReport(data({ message: "Forbidden" }, { status: 403 }))).toBe(false);
  });
});

describe("express errors", () => {
  it("answer with their own 4xx or 5xx status (reported only when 5xx), else 500", () => {
    const uri = Object.assign(new URIError("Failed to decode param '%zz'"), { status: 400, statusCode: 400 });
    expect(expressErrorStatus(uri)).toBe(400);
    expect(expressErrorStatus(Object.assign(new Error("too large"), { statusCode: 413 }))).toBe(413);
    expect(expressErrorStatus(Object.assign(new Error("x"), { status: 200, statusCode: 404 }))).toBe(404);
    expect(expressErrorStatus(Object.assign(new Error("x"), { status: 503 }))).toBe(503);
    expect(expressErrorStatus(Object.assign(new Error("x"), { status: "400" }))).toBe(500);
    expect(expressErrorStatus(new Error("boom"))).toBe(500);
    expect(expressErrorStatus(undefined)).toBe(500);
  });
});

describe("configuration", () => {
  it("without SENTRY_DSN nothing starts (no client, so nothing can be sent)", async () => {
    expect(await initErrorReporting(parseConfig({}))).toBe(false);
    expect(Sentry.getClient()).toBeUndefined();
  });

  it("a DSN must be a URL; the release is SENTRY_RELEASE when set", () => {
    expect(() => parseConfig({ SENTRY_DSN: "not a url" })).toThrow(/SENTRY_DSN/);
    expect(releaseName({ SENTRY_RELEASE: "web@abc123" })).toBe("web@abc123");
    expect(releaseName({ SENTRY_RELEASE: undefined })).toMatch(/^energyops-web@/);
  });
});

describe("scrubEvent", () => {
  const secretCookie = "__Host-session=v1.c2VjcmV0LXNlYWxlZC1zZXNzaW9uLWNvb2tpZS12YWx1ZQ";
  const event = () =>
    scrubEvent({
      type: undefined,
      event_id: "0123456789abcdef0123456789abcdef",
      message: "failed for dana@harborcoffee.test with Bearer abc.def.ghi",
      user: { id: "1", email: "dana@harborcoffee.test", ip_address: "10.0.0.1", username: "dana" },
      request: {
        method: "POST",
        url: "https://app.test/reset-password?token=reset-token-123456&x=1",
        query_string: "token=reset-token-123456",
        cookies: { "__Host-session": "sealed" },
        data: "email=dana%40harborcoffee.test&password=hunter2hunter2",
        headers: {
          Cookie: secretCookie,
          Authorization: "Bearer xyz",
          "User-Agent": "UA",
          "x-request-id": "r1",
        },
      },
      exception: {
        values: [
          {
            type: "Error",
            value:
              "GET /api/user/password/token/validate?token=reset-token-123456 failed; password=hunter2hunter2",
            stacktrace: {
              frames: [{ filename: "/build/x.js?token=t0ken", vars: { password: "hunter2hunter2" } }],
            },
          },
        ],
      },
      extra: {
        form: { password: "hunter2hunter2" },
        note: `cookie was ${secretCookie}`,
        apiSession: "s3cr3t",
      },
      tags: { request_id: "r1", client_id: "7" },
      contexts: { trace: { trace_id: "0123456789abcdef0123456789abcdef", span_id: "0123456789abcdef" } },
      breadcrumbs: [{ message: "fetch /login?password=hunter2hunter2" }],
    });

  it("keeps only the user id, safe headers and the URL's path", () => {
    const e = event();
    expect(e.user).toEqual({ id: "1" });
    expect(e.request).toEqual({
      method: "POST",
      url: "https://app.test/reset-password",
      headers: { "User-Agent": "UA", "x-request-id": "r1" },
    });
    expect(e.breadcrumbs).toBeUndefined();
    expect(e.tags).toEqual({ request_id: "r1", client_id: "7" });
    expect(e.contexts?.trace?.trace_id).toBe("0123456789abcdef0123456789abcdef");
  });

  it("leaves no cookie, token, password or email anywhere", () => {
    const text = JSON.stringify(event());
    for (const secret of [
      "hunter2hunter2",
      "reset-token-123456",
      "c2VjcmV0",
      "dana@",
      "s3cr3t",
      "t0ken",
      "abc.def.ghi",
    ])
      expect(text).not.toContain(secret);
    expect(event().exception?.values?.[0]?.value).toBe(
      "GET /api/user/password/token/validate?token=[Filtered] failed; password=[Filtered]",
    );
  });
});

describe("the browser listener", () => {
  function fakeWindow(pathname: string) {
    const listeners = new Map<string, ((e: unknown) => void)[]>();
    return {
      location: { pathname },
      addEventListener: (type: string, fn: (e: unknown) => void) =>
        listeners.set(type, [...(listeners.get(type) ?? []), fn]),
      fire: (type: string, event: unknown) => listeners.get(type)?.forEach((fn) => fn(event)),
    };
  }

  it("posts uncaught errors and rejections with the path only, once each, at most 5 per page", () => {
    const win = fakeWindow("/login/link");
    const sent: Record<string, unknown>[] = [];
    installClientErrorReporting(win as never, (body) =>
      sent.push(JSON.parse(body) as Record<string, unknown>),
    );
    const err = new TypeError("x is undefined");
    win.fire("error", { message: err.message, error: err });
    win.fire("error", { message: err.message, error: err });
    win.fire("error", { message: "", error: null }); // a failed <img> load: not a script error
    win.fire("unhandledrejection", { reason: "plain string reason" });
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({
      kind: "error",
      name: "TypeError",
      message: "x is undefined",
      page: "/login/link",
    });
    expect(String(sent[0].stack)).toContain("TypeError: x is undefined");
    expect(sent[1]).toMatchObject({ kind: "unhandledrejection", message: "plain string reason" });
    for (let i = 0; i < 10; i++) win.fire("error", { message: `e${i}`, error: new Error(`e${i}`) });
    expect(sent).toHaveLength(5);
  });
});
