import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import * as clock from "../lib/clock";
import type { ApiDeps, SmtpConfig } from "../lib/http";
import { afterFailure, LEASE_MS, scrubSmtpError, type SmtpFailure } from "./policy";
import type { OutboxRow } from "./outbox-row";
import { onMailWritten } from "./wake";

/** An outbox row as the delivery loop reads it: every row it claims has its Message-ID and claim. */
type ClaimedRow = Omit<OutboxRow, "message_id" | "claim_id"> & { message_id: string; claim_id: string };

export type DeliveryOptions = {
  /** How often due rows (retries, rows left by a crash) are looked for besides the wake-ups on write. */
  intervalMs?: number;
  /** Rows claimed at once; as many as the pool's connections, so a claimed row never waits on another. */
  batch?: number;
  /** On stop, how long sends under way may finish before the transport is closed under them. */
  drainMs?: number;
};

export type Delivery = {
  /** Looks for due rows now (also done on every write and on the interval). */
  wake: () => void;
  /** Resolves once the loop is idle: nothing claimed, nothing being sent. */
  idle: () => Promise<void>;
  /** Stops claiming, lets sends under way finish for `drainMs`, then closes the transport. */
  stop: () => Promise<void>;
  /** Since start: accepted by the server, queued again, failed for good. */
  counts: { sent: number; retried: number; failed: number };
};

/** Headers the message itself sets: a row's extra headers may not replace them. */
const OWN_HEADERS = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "subject",
  "date",
  "message-id",
  "reply-to",
  "sender",
]);

/**
 * Once a send is over (accepted, or refused for good), the row forgets what it said: the text, the HTML and the
 * extra headers carry login codes, sign-in and reset links, answer and unsubscribe tokens, which must not stay
 * readable in the database after the mail left. Who, what kind, the subject and the outcome stay for operators.
 */
const FORGET_CONTENT = "text = '', html = NULL, headers_json = '{}', links_json = '[]', code = NULL";

/** nodemailer's pooled SMTP options from `SMTP_URL` (credentials percent-decoded). */
export function transportOptions(url: string): SMTPPool.Options {
  const u = new URL(url);
  const secure = u.protocol.toLowerCase() === "smtps:";
  return {
    pool: true,
    maxConnections: 2,
    maxMessages: 100,
    host: u.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    auth: u.username
      ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) }
      : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}

/**
 * Delivers the outbox through the mail server of `deps.config.smtp`: claims due rows atomically (one
 * UPDATE … RETURNING, so two api processes never hold the same row), sends each with its own Message-ID and
 * records the outcome; transient failures are queued again with backoff, permanent ones failed and logged.
 *
 * "Nothing lost, nothing sent twice": a row is written before anything is sent and stays until the server
 * accepted it. A process that dies holding a row leaves it `sending`; once its lease (LEASE_MS) has run out
 * another claim sends it. Only a crash in the instant between the server's acceptance and the UPDATE that
 * records it makes that a second copy; SMTP offers no way to ask the server whether it already has it, so
 * the copy carries the same Message-ID (and Date), by which mail clients recognise it as the same message.
 */
export function startDelivery(deps: ApiDeps, options: DeliveryOptions = {}): Delivery {
  const smtp = deps.config.smtp as SmtpConfig;
  const { intervalMs = 5_000, batch = 2, drainMs = 5_000 } = options;
  const { db } = deps;
  const transport = nodemailer.createTransport(transportOptions(smtp.url));
  const counts = { sent: 0, retried: 0, failed: 0 };
  let stopped = false;
  /** Past the drain: whatever the sends under way answer is not recorded (their rows' leases run out). */
  let abandoned = false;
  let running: Promise<void> | null = null;
  let again = false;

  /**
   * Claims due rows: those queued for now, and those another claim left `sending` past its lease. One write
   * transaction (IMMEDIATE: no other process claims in between) reads which rows are due and in what state,
   * then claims them; `resumed` marks the rows that were left `sending`, the only ones whose send was really
   * left unfinished (RETURNING gives the row after the update, where every claimed row is `sending`).
   */
  const claim = (now: number) =>
    db
      .transaction(() => {
        const nowIso = new Date(now).toISOString();
        const due = db
          .prepare(
            `SELECT id, status FROM outbox
             WHERE (status = 'queued' AND next_attempt_at <= ?) OR (status = 'sending' AND lease_until <= ?)
             ORDER BY id LIMIT ?`,
          )
          .all(nowIso, nowIso, batch) as { id: number; status: string }[];
        if (due.length === 0) return [];
        const claimId = randomUUID();
        const take = db.prepare(
          "UPDATE outbox SET status = 'sending', attempts = attempts + 1, lease_until = ?, claim_id = ? WHERE id = ? RETURNING *",
        );
        return due.map((d) => ({
          ...(take.get(new Date(now + LEASE_MS).toISOString(), claimId, d.id) as ClaimedRow),
          resumed: d.status === "sending",
        }));
      })
      .immediate();

  /** Writes an outcome if this claim still holds the row; false when it no longer does. */
  const record = (row: ClaimedRow, sql: string, ...values: unknown[]) =>
    !abandoned &&
    db.open &&
    db.prepare(`${sql} WHERE id = ? AND claim_id = ?`).run(...values, row.id, row.claim_id).changes === 1;

  async function deliver(row: ClaimedRow & { resumed: boolean }): Promise<"sent" | "retry" | "failed"> {
    // A row claimed before (attempts counts this claim) whose lease ran out: its sender stopped mid-way.
    if (row.resumed)
      deps.log("mail delivery: resuming a send left unfinished", {
        outbox_id: row.id,
        attempts: row.attempts,
      });
    const extra = Object.fromEntries(
      Object.entries(JSON.parse(row.headers_json) as Record<string, string>).filter(
        ([name]) => !OWN_HEADERS.has(name.toLowerCase()),
      ),
    );
    try {
      await transport.sendMail({
        from: smtp.from,
        replyTo: smtp.replyTo,
        to: row.to_email,
        subject: row.subject,
        text: row.text,
        html: row.html ?? undefined,
        headers: extra,
        messageId: row.message_id,
        date: new Date(row.sent_at),
        // Our own content only: never read a file or fetch a URL named in it.
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      if (
        !record(
          row,
          `UPDATE outbox SET status = 'sent', delivered_at = ?, lease_until = NULL, ${FORGET_CONTENT}`,
          clock.nowIso(),
        )
      )
        deps.log("mail delivery: sent, but the row was no longer ours to record", { outbox_id: row.id });
      deps.log("mail delivered", { outbox_id: row.id, kind: row.kind, attempts: row.attempts });
      counts.sent++;
      return "sent";
    } catch (caught) {
      // Stopped past the drain: the row stays claimed, and its lease says when another process may send it.
      if (abandoned) {
        deps.log("mail delivery: stopped mid-send, left for after the lease", { outbox_id: row.id });
        return "retry";
      }
      const error = (caught ?? {}) as SmtpFailure;
      const message = scrubSmtpError(String(error.message ?? caught), smtp.url);
      const step = afterFailure({
        error,
        attempts: row.attempts,
        ageMs: clock.nowMs() - Date.parse(row.sent_at),
        kind: row.kind,
        random: Math.random(),
      });
      const fields = {
        outbox_id: row.id,
        kind: row.kind,
        attempts: row.attempts,
        code: error.code,
        smtp_reply: error.responseCode,
        error: message,
      };
      if (step.status === "failed") {
        record(
          row,
          `UPDATE outbox SET status = 'failed', last_error = ?, lease_until = NULL, next_attempt_at = NULL, ${FORGET_CONTENT}`,
          `${step.reason}: ${message}`,
        );
        deps.log("mail delivery failed", { ...fields, reason: step.reason });
        counts.failed++;
        return "failed";
      }
      const next = new Date(clock.nowMs() + step.delayMs).toISOString();
      record(
        row,
        "UPDATE outbox SET status = 'queued', last_error = ?, lease_until = NULL, next_attempt_at = ?",
        message,
        next,
      );
      deps.log("mail delivery will be retried", { ...fields, next_attempt_at: next });
      counts.retried++;
      return "retry";
    }
  }

  /** Claims and sends until nothing is due, or until a try fails transiently (the server is likely away). */
  async function drain() {
    while (!stopped) {
      const rows = claim(clock.nowMs());
      if (rows.length === 0) return;
      const outcomes = await Promise.all(rows.map(deliver));
      if (outcomes.includes("retry")) return;
    }
  }

  function wake() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await drain();
        } catch (error) {
          // A database error (busy, closed) must not end the process: the rows stay and the next tick retries.
          deps.log("mail delivery error", { err: error instanceof Error ? error.message : String(error) });
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  }

  const unregister = onMailWritten(db, wake);
  const timer = setInterval(wake, intervalMs);
  timer.unref();
  setImmediate(wake);

  return {
    wake,
    counts,
    idle: async () => {
      while (running) await running;
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      unregister();
      if (running) {
        let timeout: NodeJS.Timeout | undefined;
        await Promise.race([
          running,
          new Promise<void>((resolve) => {
            timeout = setTimeout(resolve, drainMs);
          }),
        ]);
        clearTimeout(timeout);
      }
      abandoned = true;
      transport.close();
    },
  };
}
