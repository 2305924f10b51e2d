import * as clock from "../lib/clock";
import type { ApiDeps } from "../lib/http";

export type Mail = { to: string; subject: string; text: string; links?: string[]; code?: string };

/** The mail simulator: every email lands in the outbox table (readable at GET /dev/outbox with demo data). */
export function sendMail(deps: ApiDeps, mail: Mail) {
  deps.db
    .prepare(
      "INSERT INTO outbox (to_email, subject, text, links_json, code, sent_at) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .run(
      mail.to.toLowerCase(),
      mail.subject,
      mail.text,
      JSON.stringify(mail.links ?? []),
      mail.code ?? null,
      clock.now().toISOString(),
    );
  deps.log("mail sent", { to: mail.to, subject: mail.subject });
}
