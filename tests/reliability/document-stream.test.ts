import net from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, webLogin, type Stack } from "../support/stack";

/**
 * A document's HTML goes from React's node stream to the socket without a web stream in between
 * (app/server/document-body.server.ts): whole pages, gzip, HEAD, and a client that leaves mid-page.
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

  it("gzip the same page when the client accepts it", async () => {
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      const url = new URL(`${stack.url}/privacy-policy`);
      const socket = net.connect(Number(url.port), url.hostname, () =>
        socket.write(
          `GET /privacy-policy HTTP/1.1\r\nHost: ${url.host}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n`,
        ),
      );
      const parts: Buffer[] = [];
      socket.on("data", (d) => parts.push(d));
      socket.on("error", reject);
      socket.on("end", () => {
        const all = Buffer.concat(parts);
        const split = all.indexOf("\r\n\r\n");
        const head = all.subarray(0, split).toString();
        let rest = all.subarray(split + 4);
        // Chunked transfer: join the chunks.
        const chunks: Buffer[] = [];
        for (;;) {
          const eol = rest.indexOf("\r\n");
          const size = Number.parseInt(rest.subarray(0, eol).toString(), 16);
          if (!size) break;
          chunks.push(rest.subarray(eol + 2, eol + 2 + size));
          rest = rest.subarray(eol + 2 + size + 2);
        }
        resolve({ encoding: /content-encoding: (\S+)/i.exec(head)?.[1], body: Buffer.concat(chunks) });
      });
    });
    expect(raw.encoding).toBe("gzip");
    const html = zlib.gunzipSync(raw.body).toString();
    expectWholePage(html, "gzip");
    expect(html).toContain("Privacy");
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
