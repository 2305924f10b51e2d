import { Router } from "express";
import { z } from "zod";
import { flagHeading } from "../../shared/bill-flags";
import { KIND_NAMES, NOTIFICATION_KINDS, type NotificationKind } from "../domain/notifications";
import * as clock from "../lib/clock";
import { type ApiDeps, HttpError, parse, route } from "../lib/http";
import { readToken, spendToken } from "../mail/tokens";

/**
 * The acts a notification's links allow without signing in (docs/api/email-answers.md): answering one bill flag,
 * and turning one kind of email off for one person. The token is the only authority, and only for that act:
 * it is bound to the flag and the answer (or the recipient and the kind), single use, and expiring. A GET
 * describes what the token would do and changes nothing (mail scanners open links).
 */

const tokenField = z.string().min(1, "Token is required").max(200);

const gone = (state: "answered" | "expired" | "invalid", message: string, status: number) =>
  new HttpError(status, { message, state });

type FlagView = {
  id: number;
  type: string;
  status: string;
  bill_statement_id: number;
  statement_date: string;
  total_charges_cents: number;
  building_id: number;
  name: string;
  nickname: string | null;
};

export function emailAnswerRoutes(deps: ApiDeps) {
  const r = Router();
  const { db } = deps;

  const flagView = (flagId: number) =>
    db
      .prepare(
        `SELECT f.id, f.type, f.status, f.bill_statement_id, s.statement_date, s.total_charges_cents, b.id AS building_id,
           b.name, b.nickname
         FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id JOIN buildings b ON b.id = s.building_id
         WHERE f.id = ?`,
      )
      .get(flagId) as FlagView;

  const answerJson = (f: FlagView, answer: string, state: string) => ({
    state,
    answer,
    flag: { id: f.id, type: f.type, status: f.status, heading: flagHeading(f) },
    bill: {
      id: f.bill_statement_id,
      statement_date: f.statement_date,
      total_charges: f.total_charges_cents,
      location: { id: f.building_id, name: f.nickname || f.name },
    },
  });

  /** What an answer token would record: the bill, the flag, the answer, and whether it still can. */
  r.get(
    "/email-answers/bill-flag",
    route((req, res) => {
      const { token } = parse(z.object({ token: tokenField }), req.query, "query");
      const t = readToken(db, "bill_answer", token);
      if (!t.row) throw gone("invalid", "This link is not valid.", 404);
      const f = flagView(t.row.bill_flag_id!);
      const state =
        t.state === "expired"
          ? "expired"
          : t.state === "used" || f.status !== "unacknowledged"
            ? "answered"
            : "open";
      res.json(answerJson(f, t.row.answer!, state));
    }),
  );

  /** Records the token's answer on its flag; the flag's other answer link is spent with it. */
  r.post(
    "/email-answers/bill-flag",
    route((req, res) => {
      const { token } = parse(z.object({ token: tokenField }), req.body);
      const result = db.transaction(() => {
        const t = readToken(db, "bill_answer", token);
        if (!t.row) throw gone("invalid", "This link is not valid.", 404);
        if (t.state === "expired") throw gone("expired", "This link has expired.", 410);
        const f = flagView(t.row.bill_flag_id!);
        if (t.state === "used" || f.status !== "unacknowledged")
          throw gone("answered", "This bill issue has already been answered.", 409);
        spendToken(db, t.row.id);
        db.prepare(
          "UPDATE email_tokens SET used_at = ? WHERE purpose = 'bill_answer' AND bill_flag_id = ? AND used_at IS NULL",
        ).run(clock.nowIso(), f.id);
        db.prepare("UPDATE bill_flags SET status = ?, updated_at = ? WHERE id = ?").run(
          t.row.answer,
          clock.nowIso(),
          f.id,
        );
        return answerJson(flagView(f.id), t.row.answer!, "recorded");
      })();
      deps.log("bill flag answered from email", { flag_id: result.flag.id, answer: result.answer });
      res.json(result);
    }),
  );

  const kindOf = (kind: string | null) =>
    (NOTIFICATION_KINDS as readonly string[]).includes(kind ?? "") ? (kind as NotificationKind) : null;

  /** Whether the person's email preference for this kind is on now (a missing preference is off). */
  const prefOn = (userId: number, kind: NotificationKind) =>
    (
      db
        .prepare(
          "SELECT enabled FROM communication_preferences WHERE user_id = ? AND communication_preference_type = ? AND delivery_method_preference = 'email'",
        )
        .get(userId, kind) as { enabled: number } | undefined
    )?.enabled === 1;

  /**
   * A used token's state: `done` while that kind is still off, `kept` once the person turned it on again since
   * (the link did its one act; what they chose later stands, rule unsubscribe-once).
   */
  const usedState = (userId: number, kind: NotificationKind) => (prefOn(userId, kind) ? "kept" : "done");

  /** What an unsubscribe token would turn off. */
  r.get(
    "/email-answers/unsubscribe",
    route((req, res) => {
      const { token } = parse(z.object({ token: tokenField }), req.query, "query");
      const t = readToken(db, "unsubscribe", token);
      const kind = kindOf(t.row?.kind ?? null);
      if (!t.row || !kind) throw gone("invalid", "This link is not valid.", 404);
      const state =
        t.state === "expired" ? "expired" : t.state === "used" ? usedState(t.row.user_id, kind) : "open";
      res.json({ state, kind, kind_name: KIND_NAMES[kind] });
    }),
  );

  /**
   * Turns that kind of email off for that person (their email preference), once: the token is spent in the
   * same transaction, and a spent token changes nothing again (rule unsubscribe-once), so a link replayed
   * later never switches off what the person turned back on. Saying it twice is not an error (a mail provider
   * may repeat a one-click request): the answer says what holds now.
   */
  r.post(
    "/email-answers/unsubscribe",
    route((req, res) => {
      const { token } = parse(z.object({ token: tokenField }), req.body);
      const state = db.transaction(() => {
        const t = readToken(db, "unsubscribe", token);
        const kind = kindOf(t.row?.kind ?? null);
        if (!t.row || !kind) throw gone("invalid", "This link is not valid.", 404);
        if (t.state === "expired") throw gone("expired", "This link has expired.", 410);
        if (t.state === "used" || !spendToken(db, t.row.id))
          return { kind, userId: t.row.user_id, state: usedState(t.row.user_id, kind), changed: false };
        db.prepare(
          `INSERT INTO communication_preferences (user_id, communication_preference_type, delivery_method_preference, enabled) VALUES (?, ?, 'email', 0)
           ON CONFLICT (user_id, communication_preference_type, delivery_method_preference) DO UPDATE SET enabled = 0`,
        ).run(t.row.user_id, kind);
        return { kind, userId: t.row.user_id, state: "done" as const, changed: true };
      })();
      if (state.changed) deps.log("unsubscribed from email", { user_id: state.userId, kind: state.kind });
      res.json({ state: state.state, kind: state.kind, kind_name: KIND_NAMES[state.kind] });
    }),
  );

  return r;
}
