import * as clock from "../lib/clock";
import type { ApiDeps } from "../lib/http";

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

/** The mail simulator: every email lands in the outbox table (readable at GET /dev/outbox with demo data). */
export function sendMail(deps: ApiDeps, mail: Mail) {
  deps.db
    .prepare(
      "INSERT INTO outbox (to_email, subject, text, html, headers_json, kind, links_json, code, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .run(
      mail.to.toLowerCase(),
      mail.subject,
      mail.text,
      mail.html ?? null,
      JSON.stringify(mail.headers ?? {}),
      mail.kind ?? "sign_in",
      JSON.stringify(mail.links ?? []),
      mail.code ?? null,
      clock.now().toISOString(),
    );
  deps.log("mail sent", { to: mail.to, subject: mail.subject });
}
