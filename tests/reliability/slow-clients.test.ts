import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack";

/**
 * Slow clients against the built server, with short limits to keep the test fast: headers dribbled a byte at a
 * time and a body dribbled a byte at a time are cut off within the configured time, a normal slow-ish upload
 * is not, and /healthz keeps answering meanwhile.
 */
const HEADERS_TIMEOUT_MS = 2000;
const BODY_TIMEOUT_MS = 2000;
const MAX_CONNECTIONS = 30;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    REQUEST_TIMEOUT_MS: "20000",
    BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
    BODY_MIN_RATE: "500",
    MAX_CONNECTIONS: String(MAX_CONNECTIONS),
  });
});
afterAll(async () => {
  await stack?.stop();
});

/**
 * Opens a raw connection, writes `head`, then one byte of `drip` every `everyMs`; resolves when the server
 * closes the connection (with what it answered, and after how long), or after `giveUpMs`.
 */
function dribble(head: string, drip: string, everyMs: number, giveUpMs: number) {
  const { port } = new URL(stack.url);
  return new Promise<{ closedAfterMs: number | null; answer: string }>((resolve) => {
    const started = performance.now();
    const socket = net.connect(Number(port), "127.0.0.1");
    let answer = "";
    let i = 0;
    const timer = setInterval(() => {
      if (i < drip.length && socket.writable) socket.write(drip[i++]);
    }, everyMs);
    const done = (closedAfterMs: number | null) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedAfterMs, answer });
    };
    const giveUp = setTimeout(() => done(null), giveUpMs);
    socket.on("data", (d) => (answer += String(d)));
    socket.on("close", () => done(performance.now() - started));
    socket.on("error", () => undefined);
    socket.write(head);
  });
}

/** The slowest /healthz answer while `during` runs (polled every 200 ms). */
async function worstHealthz(during: Promise<unknown>) {
  let finished = false;
  void during.finally(() => (finished = true));
  let worst = 0;
  while (!finished) {
    const started = performance.now();
    const res = await fetch(`${stack.url}/healthz`);
    expect(res.status).toBe(200);
    await res.text();
    worst = Math.max(worst, performance.now() - started);
    await new Promise((r) => setTimeout(r, 200));
  }
  return worst;
}

describe("slow clients", () => {
  it("headers dribbled a byte every 300 ms are cut off within the headers timeout", async () => {
    const slow = dribble(
      "GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\n",
      "X-Slow: " + "a".repeat(200),
      300,
      15_000,
    );
    const worst = await worstHealthz(slow);
    const { closedAfterMs, answer } = await slow;
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(HEADERS_TIMEOUT_MS + 1500);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(worst).toBeLessThan(500);
  });

  it("a body dribbled a byte every 500 ms is cut off by the body-rate rule, long before the request timeout", async () => {
    const body = "email=dana%40harborcoffee.test&password=x".padEnd(400, "x");
    const slow = dribble(
      `POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
      500,
      15_000,
    );
    const worst = await worstHealthz(slow);
    const { closedAfterMs, answer } = await slow;
    expect(closedAfterMs).not.toBeNull();
    // The grace, plus a second per 500 bytes received (a few bytes), plus the 500 ms between checks.
    expect(closedAfterMs!).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS);
    expect(closedAfterMs!).toBeLessThan(BODY_TIMEOUT_MS + 2000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(worst).toBeLessThan(500);
  });

  it("a body sent at 2 KB/s over 3 s is answered as usual", async () => {
    const body = new URLSearchParams({
      email: "nobody@example.test",
      password: "x".repeat(5000),
      intent: "password",
    }).toString();
    const { port } = new URL(stack.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1");
      let text = "";
      socket.on("data", (d) => (text += String(d)));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      socket.write(
        `POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      let sent = 0;
      const timer = setInterval(() => {
        socket.write(body.slice(sent, sent + 200));
        sent += 200;
        if (sent >= body.length) clearInterval(timer);
      }, 100);
    });
    expect(answer).not.toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toMatch(/^HTTP\/1\.1 (200|302|400|401|403|429)/);
  });

  it("at most MAX_CONNECTIONS are open: one more is closed unanswered, until the silent ones are cut off", async () => {
    const { port } = new URL(stack.url);
    const silent = Array.from({ length: MAX_CONNECTIONS }, () => net.connect(Number(port), "127.0.0.1"));
    const closed = new Set<net.Socket>();
    for (const s of silent) {
      s.on("error", () => undefined);
      s.on("close", () => closed.add(s));
      s.resume();
    }
    await Promise.all(silent.map((s) => new Promise((r) => s.once("connect", r))));
    await new Promise((r) => setTimeout(r, 300));
    const extra = await dribble("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "", 1000, 5000);
    expect(extra.closedAfterMs).not.toBeNull();
    expect(extra.answer).toBe("");
    // The silent connections are cut off by the headers timeout; then the server answers again.
    await new Promise((r) => setTimeout(r, HEADERS_TIMEOUT_MS + 1500));
    expect(closed.size).toBe(MAX_CONNECTIONS);
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    for (const s of silent) s.destroy();
  });
});
