import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerSession } from "smtp-server";
import { SMTP_PASS, SMTP_USER, smtpUrl } from "./smtp-account";
import { freePort } from "./stack";

/**
 * A real SMTP server for tests (the `smtp-server` package) on a port of its own, with authentication on, whose
 * messages are parsed with `mailparser`. It can be told how to behave, as a real mail server might:
 * - `accept`: every message is taken (250);
 * - `tempfail`: every recipient is refused for now (451), as a server does when busy or greylisting;
 * - `reject`: every recipient is refused for good (550);
 * - `stall`: the message is read but never answered, as a server that hangs mid-way;
 * - `down`: nothing listens on the port (connection refused), until `setMode` brings it back.
 */
export type SmtpMode = "accept" | "tempfail" | "reject" | "stall" | "down";

export type ReceivedMail = { envelope: { from: string; to: string[] }; parsed: ParsedMail; raw: string };

export type TestSmtp = Awaited<ReturnType<typeof startSmtp>>;

const replyError = (responseCode: number, message: string) =>
  Object.assign(new Error(message), { responseCode });

/** `port`: a fixed port (the e2e suite's mail receiver, tests/support/mail-receiver.ts); a free one otherwise. */
export async function startSmtp(initial: SmtpMode = "accept", options: { port?: number } = {}) {
  const port = options.port ?? (await freePort());
  const received: ReceivedMail[] = [];
  /** Messages whose transfer began (RCPT TO was answered, whatever the answer). */
  let tries = 0;
  let mode: SmtpMode = initial;
  let server: SMTPServer | null = null;
  /** The callbacks of stalled messages, answered (with a failure) when the server goes down. */
  const stalled = new Set<() => void>();

  const create = () =>
    new SMTPServer({
      logger: false,
      // Plain SMTP on loopback: authentication still required, over a connection without TLS.
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      authOptional: false,
      closeTimeout: 200,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASS)
          callback(null, { user: auth.username });
        else callback(replyError(535, "Authentication failed"));
      },
      onRcptTo(_address, _session, callback) {
        tries++;
        if (mode === "tempfail") return callback(replyError(451, "Try again later"));
        if (mode === "reject") return callback(replyError(550, "No such user here"));
        callback();
      },
      onData(stream, session: SMTPServerSession, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          if (mode === "stall") {
            const fail = () => callback(replyError(421, "Shutting down"));
            stalled.add(fail);
            return;
          }
          const raw = Buffer.concat(chunks).toString("utf8");
          void simpleParser(raw).then(
            (parsed) => {
              received.push({
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                  to: session.envelope.rcptTo.map((r) => r.address),
                },
                parsed,
                raw,
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });

  const listen = async () => {
    server = create();
    server.on("error", () => {
      // A client dropping its connection is no failure of the server.
    });
    await new Promise<void>((resolve, reject) => {
      server!.server.once("error", reject);
      server!.listen(port, "127.0.0.1", () => resolve());
    });
  };
  const close = async () => {
    for (const fail of stalled) fail();
    stalled.clear();
    const s = server;
    server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  if (initial !== "down") await listen();

  return {
    port,
    /** `smtp://user:pass@127.0.0.1:port`, the password percent-encoded as in a real SMTP_URL. */
    url: smtpUrl(port),
    received,
    get tries() {
      return tries;
    },
    async setMode(next: SmtpMode) {
      if (next === "down" && server) await close();
      if (next !== "down" && !server) await listen();
      mode = next;
    },
    /** The messages received so far with this Message-ID. */
    withMessageId: (id: string) => received.filter((m) => m.parsed.messageId === id),
    /** Waits until `ok` holds of what was received (polling), or fails after `ms`. */
    async waitFor(ok: (received: ReceivedMail[]) => boolean, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (!ok(received)) {
        if (Date.now() > deadline)
          throw new Error(`smtp: not received in ${ms} ms (${received.length} so far)`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    stop: close,
  };
}
