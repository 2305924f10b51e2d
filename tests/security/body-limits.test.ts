import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, webLogin, type Stack } from "../support/stack";

/** Request bodies are refused with 413 before Remix reads them: by Content-Length, or while a chunked body streams. */
let stack: Stack;
let cookie: string;
const LIMIT = 64 * 1024;
const DANA = "dana@harborcoffee.test";

beforeAll(async () => {
  stack = await startStack();
  cookie = await webLogin(stack.url, DANA);
});
afterAll(async () => {
  await stack?.stop();
});

/** Public form actions and signed-in ones (a cookie is sent to all: it changes nothing for the public ones). */
const POSTS = [
  "/login",
  "/login/link",
  "/reset-password?token=x",
  "/free-bill-health-check",
  "/locations",
  "/settings",
  "/locations/104/control",
  "/locations/101/spending",
];

type RawResult = { head: string; sentBytes: number; closed: boolean };

/**
 * Sends a POST over a raw socket, `total` bytes of body in 64 KiB writes, chunked or with a Content-Length,
 * reading the answer while it writes. Stops writing when the server answers or closes the connection.
 */
function rawPost(
  path: string,
  total: number,
  { chunked, contentLength = total }: { chunked: boolean; contentLength?: number },
): Promise<RawResult> {
  const { hostname, port } = new URL(stack.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let head = "";
    let sent = 0;
    let stopped = false;
    const finish = (closed: boolean) => {
      if (stopped) return;
      stopped = true;
      socket.destroy();
      resolve({ head, sentBytes: sent, closed });
    };
    socket.on("data", (d) => {
      head += d.toString("latin1");
      // The answer is in: the server closes the connection within a few seconds.
      setTimeout(() => finish(false), 5000);
    });
    socket.on("close", () => finish(true));
    socket.on("error", () => setTimeout(() => finish(true), 100));
    const chunk = Buffer.alloc(64 * 1024, "a");
    const write = () => {
      while (!stopped && sent < total) {
        const piece = chunked
          ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")])
          : chunk;
        sent += chunk.length;
        if (!socket.write(piece)) {
          socket.once("drain", write);
          return;
        }
      }
      if (!stopped && chunked) socket.write("0\r\n\r\n");
    };
    socket.on("connect", () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nCookie: ${cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
          (chunked ? "Transfer-Encoding: chunked\r\n" : `Content-Length: ${contentLength}\r\n`) +
          "\r\n",
      );
      write();
    });
  });
}

const post = (path: string, body: string | FormData, contentType?: string) =>
  fetch(`${stack.url}${path}`, {
    method: "POST",
    body,
    headers: { cookie, ...(contentType ? { "content-type": contentType } : {}) },
    redirect: "manual",
  });

describe("request body limit (64 KiB)", () => {
  it.each(POSTS)("%s: a declared 50 MB body gets 413 at once, and the server stops reading", async (path) => {
    const res = await rawPost(path, 50 * 1024 * 1024, { chunked: false });
    expect(res.head).toMatch(/^HTTP\/1\.1 413 /);
    // The kernel buffers some of what the client pushes; nothing near the 50 MB is taken in.
    expect(res.sentBytes).toBeLessThan(16 * 1024 * 1024);
    expect(res.closed).toBe(true);
  });

  it.each(POSTS)("%s: a chunked body is cut off with 413 once it passes the limit", async (path) => {
    const res = await rawPost(path, 50 * 1024 * 1024, { chunked: true });
    expect(res.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(res.sentBytes).toBeLessThan(16 * 1024 * 1024);
    expect(res.closed).toBe(true);
  });

  it("a body just over the limit is refused; one just under reaches the form", async () => {
    const filler = (n: number) =>
      `intent=password&email=${encodeURIComponent(DANA)}&password=wrong&x=${"a".repeat(n)}`;
    const base = filler(0).length;
    const over = await post(
      `/login?email=${encodeURIComponent(DANA)}`,
      filler(LIMIT - base + 1),
      "application/x-www-form-urlencoded",
    );
    expect(over.status).toBe(413);
    const under = await post(
      `/login?email=${encodeURIComponent(DANA)}`,
      filler(LIMIT - base),
      "application/x-www-form-urlencoded",
    );
    // The wrong password's own answer: the form was read.
    expect(under.status).toBe(401);
  });

  it("the server stays up and answers the next sign-in", async () => {
    expect(stack.alive()).toBe(true);
    expect(await webLogin(stack.url, DANA)).toMatch(/session=/);
  });

  it("the /api download passthrough stays GET-only", async () => {
    const res = await post("/api/bill-statement/1/download", "x=1", "application/x-www-form-urlencoded");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});

describe("form field cap (1000 fields, names up to 200 characters)", () => {
  const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=1`).join("&");

  it.each(["/login", "/free-bill-health-check", "/settings"])(
    "%s: 1001 urlencoded fields get 413",
    async (path) => {
      const res = await post(path, fields(1001), "application/x-www-form-urlencoded");
      expect(res.status).toBe(413);
    },
  );

  it("30,000 empty fields inside the byte limit get 413", async () => {
    const res = await post("/login", "a&".repeat(30_000), "application/x-www-form-urlencoded");
    expect(res.status).toBe(413);
  });

  it("1000 fields still reach the form", async () => {
    const res = await post(
      `/login?email=${encodeURIComponent(DANA)}`,
      `intent=password&password=wrong&${fields(998)}`,
      "application/x-www-form-urlencoded",
    );
    expect(res.status).not.toBe(413);
  });

  it("a field name over 200 characters gets 413", async () => {
    const res = await post("/login", `${"n".repeat(201)}=1`, "application/x-www-form-urlencoded");
    expect(res.status).toBe(413);
    const ok = await post(
      `/login?email=${encodeURIComponent(DANA)}`,
      `intent=password&password=wrong&${"n".repeat(200)}=1`,
      "application/x-www-form-urlencoded",
    );
    expect(ok.status).not.toBe(413);
  });

  it("multipart: 1001 parts, or a long part name, get 413", async () => {
    const multipart = (names: string[]) =>
      `${names.map((n) => `--b\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n1\r\n`).join("")}--b--\r\n`;
    const many = multipart(Array.from({ length: 1001 }, (_, i) => `f${i}`));
    expect(many.length).toBeLessThan(LIMIT);
    expect((await post("/login", many, "multipart/form-data; boundary=b")).status).toBe(413);
    expect(
      (await post("/login", multipart(["n".repeat(201)]), "multipart/form-data; boundary=b")).status,
    ).toBe(413);
    const fine = new FormData();
    fine.append("intent", "password");
    fine.append("password", "wrong");
    expect((await post(`/login?email=${encodeURIComponent(DANA)}`, fine)).status).not.toBe(413);
  });
});
