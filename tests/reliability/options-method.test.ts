import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, webLogin, type Stack } from "../support/stack";

/**
 * OPTIONS against the built server. The generative hostile-request suite found every OPTIONS request answered
 * 500: the body-limit middleware reads no OPTIONS body, and the Remix handler, which treats any method but GET
 * and HEAD as a submission, refused the unread body. Passed on to Remix with a body it would run the route's
 * action, past the CSRF check, which lets OPTIONS through because it never changes anything. The server
 * answers OPTIONS itself: what the page allows, and nothing runs.
 */
let stack: Stack;
let dana: string;

beforeAll(async () => {
  stack = await startStack();
  dana = await webLogin(stack.url, "dana@harborcoffee.test");
});
afterAll(async () => {
  await stack?.stop();
});

describe("OPTIONS", () => {
  it.each([
    "/",
    "/login",
    "/login/link",
    "/logout",
    "/locations/105/control",
    "/no-such-page",
    "/robots.txt",
  ])("%s: 204 with the allowed methods, no action run", async (path) => {
    stack.proxy.calls.length = 0;
    const res = await fetch(`${stack.url}${path}`, {
      method: "OPTIONS",
      headers: { cookie: dana, "sec-fetch-site": "same-origin" },
      redirect: "manual",
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(await res.text()).toBe("");
    expect(stack.proxy.calls.filter((c) => c.method !== "GET")).toEqual([]);
  });

  it("with a body, still no action: a logout sent as OPTIONS leaves the session signed in", async () => {
    const res = await fetch(`${stack.url}/logout`, {
      method: "OPTIONS",
      headers: {
        cookie: dana,
        "sec-fetch-site": "same-origin",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "intent=logout",
    });
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie()).toEqual([]);
    const page = await fetch(`${stack.url}/locations`, { headers: { cookie: dana }, redirect: "manual" });
    expect(page.status).toBe(200);
  });
});
