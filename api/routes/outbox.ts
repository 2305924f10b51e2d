import { Router, type Request, type Response } from "express";
import { z } from "zod";
import { type ApiDeps, HttpError, parse, route } from "../lib/http";
import { OUTBOX_PAGE_CSP, renderOutboxList, renderOutboxMessage } from "../mail/outbox-page";
import type { OutboxRow } from "../mail/outbox-row";

const notFound = () => new HttpError(404, { message: "Not Found" });

/** A browser (HTML before JSON in its Accept) gets the page; tests and scripts keep the JSON. */
const wantsPage = (req: Request, format: "json" | "html" | undefined) =>
  format ? format === "html" : req.accepts(["json", "html"]) === "html";

function sendPage(res: Response, html: string) {
  res.setHeader("Content-Security-Policy", OUTBOX_PAGE_CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  // Links in emails carry tokens: the page that shows them sends no referrer.
  res.setHeader("Referrer-Policy", "no-referrer");
  res.type("html").send(html);
}

const messageJson = (m: OutboxRow) => ({
  id: m.id,
  to: m.to_email,
  subject: m.subject,
  text: m.text,
  html: m.html,
  headers: JSON.parse(m.headers_json) as Record<string, string>,
  kind: m.kind,
  links: JSON.parse(m.links_json) as string[],
  code: m.code,
  sent_at: m.sent_at,
  status: m.status,
  attempts: m.attempts,
  message_id: m.message_id,
  delivered_at: m.delivered_at,
  last_error: m.last_error,
});

/**
 * Whether the outbox is served: it shows every email with its login codes, links and answer tokens, so only on
 * a demo or test server that asked for it (test hooks, or API_DEV_OUTBOX, both off by default), with demo
 * data, and never when a mail server (SMTP_URL) delivers the mail: then the mail is the only place they go.
 */
export const outboxServed = (config: ApiDeps["config"]) =>
  config.demoData && (config.testHooks || config.devOutbox === true) && !config.smtp;

/**
 * The demo's outbox (`outboxServed`): every email the api wrote, newest first, 50 at most; `?email=`
 * keeps one recipient's. JSON for tests and scripts (`?format=json`, or any Accept that does not put HTML
 * first), readable pages for a person in a browser (`?format=html` forces them).
 */
export function outboxRoutes(deps: ApiDeps) {
  const r = Router();
  const { db } = deps;
  const query = z.object({
    email: z.string().max(320).optional(),
    format: z.enum(["json", "html"]).optional(),
  });

  r.get(
    "/dev/outbox",
    route((req, res) => {
      if (!outboxServed(deps.config)) throw notFound();
      const { email: to, format } = parse(query, req.query, "query");
      const rows = (
        to
          ? db
              .prepare("SELECT * FROM outbox WHERE to_email = ? ORDER BY id DESC LIMIT 50")
              .all(to.toLowerCase())
          : db.prepare("SELECT * FROM outbox ORDER BY id DESC LIMIT 50").all()
      ) as OutboxRow[];
      if (wantsPage(req, format)) return sendPage(res, renderOutboxList(rows, to));
      res.json({ items: rows.map(messageJson) });
    }),
  );

  r.get(
    "/dev/outbox/:id",
    route((req, res) => {
      if (!outboxServed(deps.config)) throw notFound();
      const { format } = parse(query, req.query, "query");
      const id = /^\d{1,12}$/.test(req.params.id) ? Number(req.params.id) : 0;
      const row = db.prepare("SELECT * FROM outbox WHERE id = ?").get(id) as OutboxRow | undefined;
      if (!row) throw notFound();
      if (wantsPage(req, format)) return sendPage(res, renderOutboxMessage(row, deps.config.smtp?.from));
      res.json(messageJson(row));
    }),
  );

  return r;
}
