import { randomUUID } from "node:crypto";
import * as clock from "../lib/clock";
import type { ApiDeps } from "../lib/http";
import { messageId, messageIdDomain } from "./policy";
import { mailWritten } from "./wake";

export type Mail = {
  to: string;
  subject: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part, when the email has one. */
  html?: string;
  /** Extra headers, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post`. */
  headers?: Record<string, string>;
  /** What the email is, for limits and the outbox page: `sign_in` unless said. */
  kind?: string;
  links?: string[];
  code?: string;
};

/**
 * Every email is written to the outbox table first, and only from there delivered: with a mail server
 * (`SMTP_URL`) the row is `queued` and the delivery loop (api/mail/delivery.ts) sends it; without one the row
 * is the delivery (`outbox`), readable on the demo's outbox page (GET /dev/outbox). Safe inside a transaction:
 * the email is then written, and sent, only if the transaction commits. Answers the row's id.
 *
 * With a mail server the row keeps no code and no list of links (only the outbox page reads them, and it is not
 * served then); its body, which carries them, is kept only until the send is over (api/mail/delivery.ts).
 */
export function sendMail(deps: ApiDeps, mail: Mail): number {
  const now = clock.nowIso();
  const smtp = deps.config.smtp;
  const id = messageId(randomUUID(), messageIdDomain(smtp?.from, deps.config.webBaseUrl));
  const row = deps.db
    .prepare(
      `INSERT INTO outbox (to_email, subject, text, html, headers_json, kind, links_json, code, sent_at,
        status, next_attempt_at, message_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      mail.to.toLowerCase(),
      mail.subject,
      mail.text,
      mail.html ?? null,
      JSON.stringify(mail.headers ?? {}),
      mail.kind ?? "sign_in",
      JSON.stringify(smtp ? [] : (mail.links ?? [])),
      smtp ? null : (mail.code ?? null),
      now,
      smtp ? "queued" : "outbox",
      smtp ? now : null,
      id,
    );
  const outboxId = Number(row.lastInsertRowid);
  // The outbox id, not the address: the row says who it is for, the log need not.
  deps.log(smtp ? "mail queued" : "mail written to the outbox", {
    outbox_id: outboxId,
    kind: mail.kind ?? "sign_in",
    subject: mail.subject,
  });
  if (smtp) mailWritten(deps.db);
  return outboxId;
}
