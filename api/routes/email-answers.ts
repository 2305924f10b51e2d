import { Router } from "express";
import { z } from "zod";
import {
  answersOpen,
  decideFlagAnswer,
  FLAG_ANSWER_LIMIT,
  FLAG_ANSWER_LIMIT_REACHED,
  FLAG_WITHDRAW_SIGNED_IN,
  type FlagAnswerStatus,
} from "../../shared/bill-flags";
import { priceLine } from "../../shared/flag-price";
import { locationName } from "../../shared/location-name";
import { flagFigures } from "../lib/flag-figures";
import { KIND_NAMES, NOTIFICATION_KINDS, type NotificationKind } from "../domain/notifications";
import * as clock from "../lib/clock";
import { type ApiDeps, HttpError, parse, route } from "../lib/http";
import { userMaySeeBuilding } from "../lib/buildings";
import { answerJson as answerView, answerOnRecord, flagAnswers, recordFlagAnswer } from "../lib/flag-answers";
import { readToken, spendToken, type TokenRow } from "../mail/tokens";

/**
 * The acts a notification's links allow without signing in (docs/api/email-answers.md): answering one bill flag,
 * and turning one kind of email off for one person. The token is the only authority, and only for that act:
 * it is bound to the flag and its person (or the recipient and the kind), and expiring. An answer token acts
 * only while its person may still see the flag's location (re-checked at every use, rule email-token-access),
 * and may change that person's answer while it lasts; an unsubscribe token is single use. A GET describes
 * what the token would do and changes nothing (mail scanners open links).
 */

const tokenField = z.string().min(1, "Token is required").max(200);
const answerField = z.enum(["dismissed", "action_requested"]);

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
  timezone: string;
  account_number: string;
};

export function emailAnswerRoutes(deps: ApiDeps) {
  const r = Router();
  const { db } = deps;

  const flagView = (flagId: number) =>
    db
      .prepare(
        `SELECT f.id, f.type, f.status, f.bill_statement_id, s.statement_date, s.total_charges_cents, b.id AS building_id,
           b.name, b.nickname, b.timezone, a.number AS account_number
         FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id JOIN buildings b ON b.id = s.building_id
           JOIN utility_accounts a ON a.id = s.account_id
         WHERE f.id = ?`,
      )
      .get(flagId) as FlagView;

  /**
   * A token that may act now for its person on its flag (rule email-token-access): known, not revoked, and
   * its person still a member of the client who may see the location. Otherwise it is not valid: a former
   * member's link neither shows the bill nor records an answer. Expired and used are the caller's to judge.
   */
  const tokenFor = (token: string) => {
    const t = readToken(db, "bill_answer", token);
    if (!t.row || t.row.revoked_at) throw gone("invalid", "This link is not valid.", 404);
    const f = flagView(t.row.bill_flag_id!);
    if (!f || !userMaySeeBuilding(db, t.row.user_id, f.building_id))
      throw gone("invalid", "This link is not valid.", 404);
    // Used or not, an answer token acts until it expires (its person may change their answer).
    return { row: t.row as TokenRow, expired: t.row.expires_at <= clock.nowIso(), f };
  };

  /**
   * What the page shows: the flag and bill, the link's answer, the answer on record (who, when, from where;
   * `you` when it is the token's person's) and the answers this person may give now (shared rule).
   */
  const answerJson = (f: FlagView, userId: number, answer: FlagAnswerStatus, state: string) => {
    const answers = flagAnswers(db, [f.id]).get(f.id) ?? [];
    const onRecord = answerOnRecord(f.status, answers);
    // The heading from the flag's figures (a closed one's outcome), and what is at stake on the bill.
    const figures = flagFigures(db, [f.id]).get(f.id)!;
    return {
      state,
      answer,
      flag: {
        id: f.id,
        type: f.type,
        status: f.status,
        heading: figures.heading,
        price_line: priceLine(figures.price),
      },
      bill: {
        id: f.bill_statement_id,
        statement_date: f.statement_date,
        total_charges: f.total_charges_cents,
        account_number: f.account_number,
        location: { id: f.building_id, name: locationName(f), timezone: f.timezone },
      },
      on_record: onRecord ? answerView(onRecord, userId) : null,
      // An answer link escalates, never withdraws (rule flag-answer-history): the options of the "email" source.
      answers_open:
        state === "expired"
          ? []
          : answersOpen(f.status, onRecord?.user_id === userId, "email", answers.length),
      answer_limit_reached: answers.length >= FLAG_ANSWER_LIMIT,
    };
  };

  /**
   * What an answer token would record: the bill, the flag, the link's answer, the answer on record, and
   * whether the link's answer can still be given (`open`), is already on record (`answered`), or cannot.
   */
  r.get(
    "/email-answers/bill-flag",
    route((req, res) => {
      const { token } = parse(z.object({ token: tokenField }), req.query, "query");
      const t = tokenFor(token);
      const answer = t.row.answer!;
      const answers = flagAnswers(db, [t.f.id]).get(t.f.id) ?? [];
      const onRecord = answerOnRecord(t.f.status, answers);
      const state = t.expired
        ? "expired"
        : decideFlagAnswer(
              t.f.status,
              answer,
              onRecord?.user_id === t.row.user_id,
              "email",
              answers.length,
            ) === "record"
          ? "open"
          : "answered";
      res.json(answerJson(t.f, t.row.user_id, answer, state));
    }),
  );

  /**
   * Records an answer for the token's person: the link's answer, or the email's other answer (`answer`: the
   * page's "change my answer"); the token stays usable until it expires, and the shared rule decides. The
   * same answer again by the same person is `recorded` without a new row (a double click); another person's
   * answer on record, or a refusal, is 409 with the answer on record.
   */
  r.post(
    "/email-answers/bill-flag",
    route((req, res) => {
      const body = parse(z.object({ token: tokenField, answer: answerField.optional() }), req.body);
      const result = db.transaction(() => {
        const t = tokenFor(body.token);
        const f = t.f;
        if (t.expired) throw gone("expired", "This link has expired.", 410);
        const answer = body.answer ?? t.row.answer!;
        const { decision, onRecord } = recordFlagAnswer(db, f, t.row.user_id, answer, "email");
        if (decision !== "record" && !(decision === "already" && onRecord?.user_id === t.row.user_id)) {
          throw new HttpError(409, {
            message:
              decision === "signed-in"
                ? FLAG_WITHDRAW_SIGNED_IN
                : decision === "limit"
                  ? FLAG_ANSWER_LIMIT_REACHED
                  : "This bill issue has already been answered.",
            ...(decision === "signed-in" || decision === "limit"
              ? { error: decision === "limit" ? "answer_limit" : "signed_in" }
              : {}),
            ...answerJson(flagView(f.id), t.row.user_id, answer, "answered"),
          });
        }
        if (!t.row.used_at) spendToken(db, t.row.id);
        return {
          recorded: decision === "record",
          view: answerJson(flagView(f.id), t.row.user_id, answer, "recorded"),
        };
      })();
      if (result.recorded)
        deps.log("bill flag answered from email", {
          flag_id: result.view.flag.id,
          answer: result.view.answer,
        });
      res.json(result.view);
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
   * A used token's state: `done` while its kinds are still off, `kept` once the person turned one on again since
   * (the link did its one act; what they chose later stands, rule unsubscribe-once).
   */
  const usedState = (userId: number, kinds: NotificationKind[]) =>
    kinds.some((kind) => prefOn(userId, kind)) ? "kept" : "done";

  /** What an unsubscribe token would turn off. */
  r.get(
    "/email-answers/unsubscribe",
    route((req, res) => {
      const { token } = parse(z.object({ token: tokenField }), req.query, "query");
      const t = readToken(db, "unsubscribe", token);
      const kinds = kindsOf(t.row?.kind ?? null);
      if (!t.row || !kinds) throw gone("invalid", "This link is not valid.", 404);
      const state =
        t.state === "expired" ? "expired" : t.state === "used" ? usedState(t.row.user_id, kinds) : "open";
      res.json({ state, kind: kinds[0], kinds, kind_name: kindNames(kinds) });
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
        const kinds = kindsOf(t.row?.kind ?? null);
        if (!t.row || !kinds) throw gone("invalid", "This link is not valid.", 404);
        if (t.state === "expired") throw gone("expired", "This link has expired.", 410);
        if (t.state === "used" || !spendToken(db, t.row.id))
          return { kinds, userId: t.row.user_id, state: usedState(t.row.user_id, kinds), changed: false };
        for (const kind of kinds)
          db.prepare(
            `INSERT INTO communication_preferences (user_id, communication_preference_type, delivery_method_preference, enabled) VALUES (?, ?, 'email', 0)
             ON CONFLICT (user_id, communication_preference_type, delivery_method_preference) DO UPDATE SET enabled = 0`,
          ).run(t.row.user_id, kind);
        return { kinds, userId: t.row.user_id, state: "done" as const, changed: true };
      })();
      if (state.changed)
        deps.log("unsubscribed from email", { user_id: state.userId, kind: state.kinds.join(",") });
      res.json({
        state: state.state,
        kind: state.kinds[0],
        kinds: state.kinds,
        kind_name: kindNames(state.kinds),
      });
    }),
  );

  return r;
}
