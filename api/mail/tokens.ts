import type { DB } from "../db";
import * as clock from "../lib/clock";
import { sha256 } from "../lib/crypto";

/**
 * The tokens in notification links (table `email_tokens`): only their hash is stored; each is bound to one bill
 * flag, its person and the link's answer, or to one recipient and one kind of email (unsubscribe); each
 * expires. An unsubscribe token is spent once used; an answer token is marked used at its first answer and
 * acts until it expires, only while its person may see the location (api/routes/email-answers.ts), and is
 * revoked when that access is removed (`revokeAnswerTokens`). A token is the only authority of the act it
 * names: no sign-in is needed for that one act.
 */

export type BillAnswer = "dismissed" | "action_requested";

export type TokenRow = {
  id: number;
  purpose: "bill_answer" | "unsubscribe";
  user_id: number;
  bill_flag_id: number | null;
  answer: BillAnswer | null;
  kind: string | null;
  expires_at: string;
  used_at: string | null;
  /** Set when the person lost access to the flag's location (answer tokens only): never valid again. */
  revoked_at: string | null;
};

const daysFromNow = (days: number) => new Date(clock.nowMs() + days * 86_400_000).toISOString();

function insert(
  db: DB,
  token: string,
  row: { purpose: TokenRow["purpose"]; userId: number; flagId?: number; answer?: BillAnswer; kind?: string },
  days: number,
) {
  db.prepare(
    "INSERT INTO email_tokens (token_hash, purpose, user_id, bill_flag_id, answer, kind, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  ).run(
    sha256(token),
    row.purpose,
    row.userId,
    row.flagId ?? null,
    row.answer ?? null,
    row.kind ?? null,
    clock.nowIso(),
    daysFromNow(days),
  );
}

/**
 * Stores a token (made with `randomToken` before the email was rendered) bound to one flag and one answer.
 * Written in the same transaction as the email, so no token exists for an email that was not written.
 */
export const storeAnswerToken = (
  db: DB,
  token: string,
  userId: number,
  flagId: number,
  answer: BillAnswer,
  days: number,
) => insert(db, token, { purpose: "bill_answer", userId, flagId, answer }, days);

/** Stores an unsubscribe token bound to one recipient and one kind of email. */
export const storeUnsubscribeToken = (db: DB, token: string, userId: number, kind: string, days: number) =>
  insert(db, token, { purpose: "unsubscribe", userId, kind }, days);

/** What a token is worth now: unknown (or of another purpose), expired, already used, or usable. */
export function readToken(db: DB, purpose: TokenRow["purpose"], token: string) {
  const row = db
    .prepare("SELECT * FROM email_tokens WHERE token_hash = ? AND purpose = ?")
    .get(sha256(token), purpose) as TokenRow | undefined;
  if (!row) return { state: "invalid" as const, row: null };
  if (row.used_at) return { state: "used" as const, row };
  if (row.expires_at <= clock.nowIso()) return { state: "expired" as const, row };
  return { state: "usable" as const, row };
}

/** Spends a token (in the caller's transaction); false when another request spent it first. */
export const spendToken = (db: DB, id: number) =>
  db.prepare("UPDATE email_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL").run(clock.nowIso(), id)
    .changes === 1;

/**
 * Ends a person's answer links for the flags of one location (their access to it was removed): revoked tokens
 * are never valid again, even if access is given back later (a new alert brings new links).
 */
export const revokeAnswerTokens = (db: DB, userId: number, buildingId: number) =>
  db
    .prepare(
      `UPDATE email_tokens SET revoked_at = ? WHERE purpose = 'bill_answer' AND user_id = ? AND revoked_at IS NULL
         AND bill_flag_id IN (SELECT f.id FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id
                              WHERE s.building_id = ?)`,
    )
    .run(clock.nowIso(), userId, buildingId).changes;
