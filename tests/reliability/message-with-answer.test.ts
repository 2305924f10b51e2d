import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DANA } from "../support/pages";
import { getPage, startStack, webLogin, type Stack } from "../support/stack";

/**
 * A message belongs to the answer it explains: a failed action answers with its own page (4xx/5xx) and says
 * why there, and the next page the user opens says nothing about it. Document posts, as without JavaScript,
 * against the real api behind the fault proxy.
 */
let stack: Stack;
let cookie: string;

beforeAll(async () => {
  stack = await startStack();
  cookie = await webLogin(stack.url, DANA);
});

afterAll(async () => {
  await stack?.stop();
});

afterEach(() => stack.proxy.clear());

async function post(path: string, body: URLSearchParams, withCookie?: string) {
  const res = await fetch(`${stack.url}${path}`, {
    method: "POST",
    headers: {
      ...(withCookie ? { cookie: withCookie } : {}),
      "content-type": "application/x-www-form-urlencoded",
    },
    body,
    redirect: "manual",
  });
  const next = res.headers
    .getSetCookie()
    .find((c) => c.includes("session="))
    ?.split(";")[0];
  return { status: res.status, body: await res.text(), cookie: next ?? withCookie };
}

/** The text of every toast of a page. */
const toasts = (html: string) =>
  [...html.matchAll(/data-testid="toast"[^>]*>([\s\S]*?)<\/div>/g)].map((m) =>
    m[1]
      .replace(/<[^>]+>/g, "")
      .replace(/&#x27;/g, "'")
      .replace(/&amp;/g, "&"),
  );

describe("a failed login-code request", () => {
  const path = `/login?email=${encodeURIComponent(DANA)}`;

  it("is said on the login page that answers it, with the email kept, and not on the next page", async () => {
    stack.proxy.fail(/^\/auth\/login-code\/request$/, "reset", "POST");
    const answer = await post(path, new URLSearchParams({ intent: "request-code", email: DANA }));
    expect(answer.status).toBe(502);
    expect(toasts(answer.body)).toEqual(["Oops! Something went wrong."]);
    expect(answer.body).toContain(`value="${DANA}"`);
    const next = await getPage(stack.url, "/privacy-policy", answer.cookie);
    expect(toasts(next.body)).toEqual([]);
  });

  it("with JavaScript, the action's own data carries the message", async () => {
    stack.proxy.fail(/^\/auth\/login-code\/request$/, "500", "POST");
    const res = await fetch(`${stack.url}/login.data?email=${encodeURIComponent(DANA)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "request-code", email: DANA }),
      redirect: "manual",
    });
    expect(await res.text()).toContain("Internal Server Error (injected)");
    expect(res.headers.getSetCookie().some((c) => c.includes("session="))).toBe(false);
  });
});

describe("a failed thermostat Save", () => {
  it("a refusal: the card says why, the next page does not", async () => {
    const answer = await post(
      "/locations/101/control",
      new URLSearchParams({
        intent: "save",
        thermostatId: "1004",
        tab: "all",
        mode: "cool",
        coolSetpointF: "70",
        heatSetpointF: "66",
      }),
      cookie,
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toContain("so its settings cannot be changed");
    const next = await getPage(stack.url, "/grid-services", answer.cookie);
    expect(next.status).toBe(200);
    expect(toasts(next.body)).toEqual([]);
  });

  it("an upstream 403: the answer is a 403 saying Forbidden, and Grid Services says nothing", async () => {
    const page = await getPage(stack.url, "/locations/104/control", cookie);
    expect(page.status).toBe(200);
    stack.proxy.fail(/^\/thermostats\/1012\/settings$/, "403", "POST");
    const answer = await post(
      "/locations/104/control",
      new URLSearchParams({
        intent: "save",
        thermostatId: "1012",
        tab: "all",
        mode: "cool",
        coolSetpointF: "79",
        heatSetpointF: "60",
      }),
      cookie,
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toContain("Forbidden");
    const next = await getPage(stack.url, "/grid-services", answer.cookie);
    expect(next.body).not.toContain("Forbidden");
    expect(toasts(next.body)).toEqual([]);
  });
});

describe("a location link the user can no longer open", () => {
  it("lands on Locations saying why", async () => {
    // The location is still listed, but its thermostats answer 404 (access revoked since the email was sent).
    stack.proxy.fail(/^\/building\/101\/thermostats$/, "404", "GET");
    const res = await fetch(`${stack.url}/locations/101/control`, {
      headers: { cookie },
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/locations");
    const next = res.headers
      .getSetCookie()
      .find((c) => c.includes("session="))
      ?.split(";")[0];
    const page = await getPage(stack.url, "/locations", next ?? cookie);
    expect(toasts(page.body)).toEqual(["That location isn't available to your account"]);
  });
});
