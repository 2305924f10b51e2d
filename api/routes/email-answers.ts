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

  /**
   * The kinds a token turns off: one, or (the List-Unsubscribe header of a grouped alert email) every kind that
   * email held, comma-separated. Null when any is unknown.
   */
  const kindsOf = (kind: string | null) => {
    const kinds = (kind ?? "").split(",");
    return kinds.every((k) => (NOTIFICATION_KINDS as readonly string[]).includes(k))
      ? (kinds as NotificationKind[])
      : null;
  };
  const kindNames = (kinds: NotificationKind[]) =>
    kinds.map((k) => KIND_NAMES[k]).join(kinds.length > 2 ? ", " : " and ");

  /** What an unsubscribe token would turn off. */
  r.get(
    "/email-answers/unsubscribe",
    route((req, res) => {
      const { token } = parse(z.object({ token: tokenField }), req.query, "query");
      const t = readToken(db, "unsubscribe", token);
      const kinds = kindsOf(t.row?.kind ?? null);
      if (!t.row || !kinds) throw gone("invalid", "This link is not valid.", 404);
      const state = t.state === "expired" ? "expired" : t.state === "used" ? "done" : "open";
      res.json({ state, kind: kinds[0], kinds, kind_name: kindNames(kinds) });
    }),
  );

  /**
   * Turns that kind of email off for that person (their email preference). Saying it twice is not an error:
   * a mail provider may repeat a one-click request.
   */
  r.post(
    "/email-answers/unsubscribe",
    route((req, res) => {
      const { token } = parse(z.object({ token: tokenField }), req.body);
      const t = readToken(db, "unsubscribe", token);
      const kinds = kindsOf(t.row?.kind ?? null);
      if (!t.row || !kinds) throw gone("invalid", "This link is not valid.", 404);
      if (t.state === "expired") throw gone("expired", "This link has expired.", 410);
      db.transaction(() => {
        for (const kind of kinds)
          db.prepare(
            `INSERT INTO communication_preferences (user_id, communication_preference_type, delivery_method_preference, enabled) VALUES (?, ?, 'email', 0)
             ON CONFLICT (user_id, communication_preference_type, delivery_method_preference) DO UPDATE SET enabled = 0`,
          ).run(t.row!.user_id, kind);
        spendToken(db, t.row!.id);
      })();
      deps.log("unsubscribed from email", { user_id: t.row.user_id, kind: kinds.join(",") });
      res.json({ state: "done", kind: kinds[0], kinds, kind_name: kindNames(kinds) });
    }),
  );

  return r;
}
