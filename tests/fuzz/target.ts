import zlib from "node:zlib";
import { startServerChild } from "../reliability/server-child";
import { webLogin } from "../support/stack";
import type { FuzzBody, FuzzCase, User } from "./arbitraries";
import { sendRaw, type RawRequest } from "./raw-http";

const EMAILS: Record<Exclude<User, "anonymous">, string> = {
  dana: "dana@harborcoffee.test",
  morgan: "morgan@energyops.test",
};

/** The session cookie's names (`__Host-` once served over https). */
const SESSION_COOKIE = /^(?:__Host-)?session=/i;

type Child = Awaited<ReturnType<typeof startServerChild>>;

/**
 * The built server as the fuzzer's target: a child process with a 512 MB heap (a request that makes it build a
 * giant array kills it quickly, not the machine) in front of a healthy api, with real sessions of demo users.
 * When the child dies it is started again before the next request, so shrinking replays every candidate on
 * a live server.
 */
export async function startFuzzTarget(env: Record<string, string>) {
  let child: Child;
  const cookies = new Map<User, string>();
  let restarts = 0;

  async function start() {
    child = await startServerChild({
      nodeArgs: ["--max-old-space-size=512"],
      env: {
        // The deployment's settings behind nginx: X-Forwarded-* are honoured, as in production.
        // FUZZ_TRUST_PROXY=0 fuzzes a server reached directly instead (forwarded headers dropped, never read).
        TRUST_PROXY: process.env.FUZZ_TRUST_PROXY ?? "1",
        // Sign-in limits out of the way, so the fuzzer reaches the forms instead of a 429.
        LOGIN_RATE_LIMIT_PER_IP: "1000000",
        LOGIN_RATE_LIMIT_PER_ACCOUNT: "1000000",
        LOGIN_RATE_LIMIT_PER_ACCOUNT_IP: "1000000",
        LOGIN_OPTIONS_RATE_LIMIT_PER_IP: "1000000",
        ...env,
      },
    });
    cookies.clear();
  }
  await start();

  const alive = () => child.child.exitCode === null && child.child.signalCode === null;
  /** Set when the process is alive but no longer answers (its event loop blocked): it is killed and replaced. */
  let wedged = false;
  async function kill() {
    if (!alive()) return;
    const exited = new Promise((r) => child.child.once("exit", r));
    child.child.kill("SIGKILL");
    await exited;
  }

  return {
    get port() {
      return Number(new URL(child.url).port);
    },
    get url() {
      return child.url;
    },
    get pid() {
      return child.child.pid!;
    },
    get restarts() {
      return restarts;
    },
    alive,
    /** Why the child ended (exit code or signal) and the end of its output. */
    death() {
      const c = child.child;
      return `exit code ${c.exitCode}, signal ${c.signalCode}; last output: ${child.logs.join("").slice(-1500)}`;
    },
    /** Resident memory in MB, or NaN once the process is gone. */
    rssMb() {
      try {
        return child.rssMb();
      } catch {
        return NaN;
      }
    },
    /** The server's output so far (chunks); `outputSince(n)` is what it wrote after the first n. */
    outputLength: () => child.logs.length,
    outputSince: (n: number) => child.logs.slice(n).join(""),
    /** Keeps the collected output short on long runs. */
    trimLogs() {
      if (child.logs.length > 200) child.logs.splice(0, child.logs.length - 50);
    },
    /** Whether the server still answers /healthz within `timeoutMs`; if not, it is replaced before the next request. */
    async answers(timeoutMs = 2000) {
      const answer = await sendRaw(
        Number(new URL(child.url).port),
        { method: "GET", target: "/healthz", headers: [["Host", new URL(child.url).host]] },
        timeoutMs,
      );
      if (answer.status !== 200) wedged = true;
      return !wedged;
    },
    /** Starts a fresh child when the last one died or stopped answering (fresh api data, fresh sessions). */
    async ensureAlive() {
      if (alive() && !wedged) return false;
      await kill();
      await child.stop();
      await start();
      wedged = false;
      restarts++;
      return true;
    },
    async cookie(user: User) {
      if (user === "anonymous") return undefined;
      if (!cookies.has(user)) cookies.set(user, await webLogin(child.url, EMAILS[user]));
      return cookies.get(user);
    },
    /** Like a browser: keep a renewed session cookie, sign in again when the session was ended. */
    observeSetCookie(user: User, head: string) {
      if (user === "anonymous") return;
      for (const line of head.split("\r\n")) {
        const m = /^set-cookie:\s*(.*)$/i.exec(line);
        if (!m || !SESSION_COOKIE.test(m[1])) continue;
        const pair = m[1].split(";")[0];
        const ended = /=$/.test(pair) || /max-age=0\b|expires=thu, 01 jan 1970/i.test(m[1]);
        if (ended) cookies.delete(user);
        else cookies.set(user, pair);
      }
    },
    forgetSessions: () => cookies.clear(),
    async stop() {
      // A blocked event loop never handles SIGTERM: a child that has not exited after 10 s is killed.
      if (alive() && !wedged) {
        const exited = new Promise((r) => child.child.once("exit", r));
        child.child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      }
      await kill();
      await child.stop();
    },
  };
}

export type FuzzTarget = Awaited<ReturnType<typeof startFuzzTarget>>;

/** The bytes of a generated body with its framing headers (type, encoding, declared length). */
function bodyBytes(body: FuzzBody): { bytes: Buffer; headers: [string, string][] } {
  let bytes = Buffer.from(body.text, body.encoding);
  const headers: [string, string][] = [];
  if (body.contentType !== null) headers.push(["Content-Type", body.contentType]);
  if (body.gzip !== "no") headers.push(["Content-Encoding", "gzip"]);
  if (body.gzip === "gzipped") bytes = zlib.gzipSync(bytes);
  switch (body.length) {
    case "true":
      headers.push(["Content-Length", String(bytes.length)]);
      break;
    case "smaller":
      // The rest of the body reaches the server as the start of a second request on the connection.
      headers.push(["Content-Length", String(Math.floor(bytes.length / 2))]);
      break;
    case "huge":
      headers.push(["Content-Length", "99999999999999"]);
      break;
    case "garbage":
      headers.push(["Content-Length", "12abc"]);
      break;
    case "negative":
      headers.push(["Content-Length", "-1"]);
      break;
    case "twice":
      headers.push(["Content-Length", String(bytes.length)], ["Content-Length", String(bytes.length + 1)]);
      break;
    case "chunked": {
      headers.push(["Transfer-Encoding", "chunked"]);
      const half = Math.ceil(bytes.length / 2);
      const chunk = (b: Buffer) =>
        b.length ? [Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from("\r\n")] : [];
      bytes = Buffer.concat([
        ...chunk(bytes.subarray(0, half)),
        ...chunk(bytes.subarray(half)),
        Buffer.from("0\r\n\r\n"),
      ]);
      break;
    }
  }
  return { bytes, headers };
}

/** The request a case describes, for a server on `port`, carrying `requestId` and the user's cookie. */
export function toRawRequest(
  c: FuzzCase,
  port: number,
  requestId: string,
  sessionCookie?: string,
): RawRequest {
  const fill = (s: string) => s.replaceAll("{PORT}", String(port));
  const headers: [string, string][] = [];
  const host = c.headers.host ?? "127.0.0.1:{PORT}";
  if (host !== "<absent>") headers.push(["Host", fill(host)]);
  for (const [name, value] of Object.entries(c.headers)) {
    if (name === "host" || name === "cookie") continue;
    headers.push([name, fill(value)]);
  }
  const cookie = [sessionCookie, c.headers.cookie].filter(Boolean).join("; ");
  if (cookie) headers.push(["Cookie", cookie]);
  // Our own request id (unless the case sends a hostile one) ties an error report to the request behind it.
  if (c.headers["x-request-id"] === undefined) headers.push(["X-Request-Id", requestId]);
  let body: Buffer | undefined;
  if (c.body) {
    const framed = bodyBytes(c.body);
    headers.push(...framed.headers);
    body = framed.bytes;
  }
  return { method: c.method, target: fill(c.path + c.query), headers, body };
}
