/**
 * The e2e suite's mail server: a real SMTP server (tests/support/smtp.ts: `smtp-server`, authentication on,
 * every message parsed by `mailparser`) and a small HTTP side the tests read what it received from, as a
 * person's inbox. One per Playwright project (playwright.config.ts starts it as a `webServer` before the web
 * server whose api delivers to it through SMTP_URL):
 *
 *   node --import tsx tests/support/mail-receiver.ts <smtp port> <http port>
 *
 * HTTP (loopback only):
 * - `GET /healthz`: 200 once both sides listen;
 * - `GET /messages?to=<address>&after=<seq>`: `{ last, items }`, the messages received (oldest first) whose
 *   envelope names that recipient and that arrived after that mark, each read as tests/support/mail-reading.ts
 *   says; `last` is the newest message's `seq` (the mark a test takes before it acts).
 */
import http from "node:http";
import { readEmail, type ReceivedEmail } from "./mail-reading";
import { startSmtp } from "./smtp";

const [smtpPort, httpPort] = process.argv.slice(2).map(Number);
if (!smtpPort || !httpPort) {
  console.error("usage: mail-receiver.ts <smtp port> <http port>");
  process.exit(2);
}

const smtp = await startSmtp("accept", { port: smtpPort });
/** Read once per message, in arrival order (`smtp.received` only grows). */
const read: ReceivedEmail[] = [];
const readAll = () => {
  for (let i = read.length; i < smtp.received.length; i++) {
    const m = smtp.received[i];
    read.push(readEmail(i + 1, m.envelope, m.parsed));
  }
  return read;
};

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  };
  if (req.method !== "GET") return send(405, { error: "GET only" });
  if (url.pathname === "/healthz") return send(200, { ok: true });
  if (url.pathname === "/messages") {
    const all = readAll();
    const to = url.searchParams.get("to")?.toLowerCase();
    const after = Number(url.searchParams.get("after") ?? 0);
    const items = all.filter((m) => m.seq > after && (!to || m.to.includes(to)));
    return send(200, { last: all.length, items });
  }
  send(404, { error: "not found" });
});
await new Promise<void>((resolve) => server.listen(httpPort, "127.0.0.1", resolve));
console.log(`mail receiver: SMTP on 127.0.0.1:${smtpPort}, messages on http://127.0.0.1:${httpPort}`);

const stop = () => {
  server.close();
  void smtp.stop().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
