import net from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, webLogin, type Stack } from "../support/stack";

/**
 * A document's HTML is rendered by React with Remix's hydration scripts after it (entry.server, Remix's default
 * renderer) and sent as one body once ready: whole pages with their length, gzip, HEAD, pages without scripts,
 * and a client that leaves mid-page.
 */
let stack: Stack;
let cookie: string;
beforeAll(async () => {
  stack = await startStack();
  cookie = await webLogin(stack.url, "dana@harborcoffee.test");
});
afterAll(async () => {
  await stack?.stop();
});

/** A whole document: the shell, the end of the HTML and the end of the hydration data that streams after it. */
function expectWholePage(html: string, label: string) {
  expect(html.startsWith("<!DOCTYPE html>"), label).toBe(true);
  expect(html, label).toContain("</body></html>");
  expect(html, label).toContain("window.__remixContext.streamController.close();");
}

describe("document answers", () => {
  it("send the whole page, signed out and signed in", async () => {
    for (const [path, headers, text] of [
      ["/privacy-policy", {}, "Privacy"],
      ["/settings", { cookie }, "<h1>Manage account</h1>"],
    ] as const) {
      const res = await fetch(`${stack.url}${path}`, { headers, redirect: "manual" });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toBe("text/html; charset=utf-8");
      const html = await res.text();
      expectWholePage(html, path);
      expect(html, path).toContain(text);
    }
  });

  it("send a whole page uncompressed, as one body with its length, when the client does not ask for gzip", async () => {
    for (const [path, headers] of [
      ["/privacy-policy", ""],
      ["/settings", `Cookie: ${cookie}\r\n`],
    ] as const) {
      const raw = await rawGet(path, headers);
      expect(raw.encoding, path).toBeUndefined();
      // entry.server renders the page once everything is ready: one body with a Content-Length, not chunks.
      expect(raw.chunked, path).toBe(false);
      expect(raw.length, path).toBe(raw.body.byteLength);
      expectWholePage(raw.body.toString(), path);
    }
  });

  it("gzip the same page when the client accepts it", async () => {
    const raw = await rawGet("/privacy-policy", "Accept-Encoding: gzip\r\n");
    expect(raw.encoding).toBe("gzip");
    const html = zlib.gunzipSync(raw.body).toString();
    expectWholePage(html, "gzip");
    expect(html).toContain("Privacy");
  });

  it("end a page without scripts at </html>: no hydration data (an email deep link)", async () => {
    const res = await fetch(`${stack.url}/fix-my-bill/action_requested`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    // Remix's own output leaves its empty hydration-data boundary (`<!--$--><!--/$-->`) after </html>: no script.
    expect(html.slice(html.indexOf("</body></html>"))).not.toContain("<script");
    expect(html).not.toContain("__remixContext");
  });

  it("answer HEAD with the page's status and headers and no body", async () => {
    const res = await fetch(`${stack.url}/privacy-policy`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toBe("");
  });

  it("survive a client that leaves in the middle of a page", async () => {
    const url = new URL(stack.url);
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(url.port), url.hostname, () =>
          socket.write(`GET /settings HTTP/1.1\r\nHost: ${url.host}\r\nCookie: ${cookie}\r\n\r\n`),
        );
        socket.once("data", () => socket.destroy());
        socket.on("close", () => resolve());
      });
    }
    const res = await fetch(`${stack.url}/settings`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expectWholePage(await res.text(), "after the clients left");
    expect(stack.alive()).toBe(true);
  });
});

/** One GET over a fresh socket (Connection: close), as the bytes arrived: chunked bodies joined. */
function rawGet(path: string, extraHeaders: string) {
  return new Promise<{ encoding?: string; length?: number; chunked: boolean; body: Buffer }>(
    (resolve, reject) => {
      const url = new URL(`${stack.url}${path}`);
      const socket = net.connect(Number(url.port), url.hostname, () =>
        socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\n${extraHeaders}Connection: close\r\n\r\n`),
      );
      const parts: Buffer[] = [];
      socket.on("data", (d) => parts.push(d));
      socket.on("error", reject);
      socket.on("end", () => {
        const all = Buffer.concat(parts);
        const split = all.indexOf("\r\n\r\n");
        const head = all.subarray(0, split).toString();
        let rest = all.subarray(split + 4);
        const chunked = /transfer-encoding: chunked/i.test(head);
        const length = /content-length: (\d+)/i.exec(head)?.[1];
        const encoding = /content-encoding: (\S+)/i.exec(head)?.[1];
        if (!chunked)
          return resolve({ encoding, length: length ? Number(length) : undefined, chunked, body: rest });
        const chunks: Buffer[] = [];
        for (;;) {
          const eol = rest.indexOf("\r\n");
          const size = Number.parseInt(rest.subarray(0, eol).toString(), 16);
          if (!size) break;
          chunks.push(rest.subarray(eol + 2, eol + 2 + size));
          rest = rest.subarray(eol + 2 + size + 2);
        }
        resolve({ encoding, chunked, body: Buffer.concat(chunks) });
      });
    },
  );
}
