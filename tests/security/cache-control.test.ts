import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, webLogin, type Stack } from "../support/stack";
import { GET_ROUTES } from "../support/routes";
import { PAGES } from "../support/pages";

/** Every answer that depends on a session or a token is `Cache-Control: private, no-store`; static files keep their caching. */
let stack: Stack;
const cookies = new Map<string, string>();
const DANA = "dana@harborcoffee.test";

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function cookieFor(user: string) {
  if (!cookies.has(user)) cookies.set(user, await webLogin(stack.url, user));
  return cookies.get(user)!;
}

/** The Remix single-fetch URL of a page: `/x?y` → `/x.data?y`, `/` → `/_root.data`. */
function dataUrl(path: string) {
  const url = new URL(path, "http://x");
  url.pathname = url.pathname === "/" ? "/_root.data" : `${url.pathname.replace(/\/$/, "")}.data`;
  return `${url.pathname}${url.search}`;
}

const get = (path: string, cookie?: string) =>
  fetch(`${stack.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
const userOf = (path: string) => PAGES.find((p) => p.path === path)?.user ?? DANA;

const signedIn = GET_ROUTES.filter((r) => !r.public);
const isResource = (path: string) => /\/csv(\?|$)/.test(path);

describe("signed-in routes: private, no-store", () => {
  it.each(signedIn.map((r) => r.path))("%s (document, signed in)", async (path) => {
    const res = await get(path, await cookieFor(userOf(path)));
    await res.arrayBuffer();
    expect(res.status, "answered").toBeLessThan(500);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it.each(signedIn.filter((r) => !isResource(r.path)).map((r) => r.path))(
    "%s (.data, signed in)",
    async (path) => {
      const res = await get(dataUrl(path), await cookieFor(userOf(path)));
      await res.arrayBuffer();
      expect(res.status, "answered").toBeLessThan(500);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
    },
  );

  it.each(signedIn.map((r) => r.path))("%s (signed out: the redirect to sign-in)", async (path) => {
    const res = await get(path);
    await res.arrayBuffer();
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("a signed-in action's redirect (logout) and the sign-in redirect", async () => {
    const login = await fetch(`${stack.url}/login?email=${encodeURIComponent(DANA)}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "password", email: DANA, password: "demo-pass-2024", next: "/" }),
      redirect: "manual",
    });
    expect(login.status).toBe(302);
    expect(login.headers.get("cache-control")).toBe("private, no-store");
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.includes("session="))!
      .split(";")[0];
    const out = await fetch(`${stack.url}/logout`, {
      method: "POST",
      headers: { cookie },
      redirect: "manual",
    });
    expect(out.status).toBe(302);
    expect(out.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("token pages: private, no-store", () => {
  it.each(["/reset-password?token=abc", "/login/link?token=abc"])("%s (document and .data)", async (path) => {
    for (const p of [path, dataUrl(path)]) {
      const res = await get(p);
      await res.arrayBuffer();
      expect(res.status, p).toBeLessThan(500);
      expect(res.headers.get("cache-control"), p).toBe("private, no-store");
    }
  });
});

describe("static files keep their caching", () => {
  it("fingerprinted /build assets are immutable for a year; public/ files an hour", async () => {
    const html = await (await get("/login")).text();
    const asset = /\/build\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    const res = await get(asset!);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const file = await get("/sample-bill.pdf");
    await file.arrayBuffer();
    expect(file.status).toBe(200);
    expect(file.headers.get("cache-control")).toBe("public, max-age=3600");
  });
});
