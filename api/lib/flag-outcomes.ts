import type { DB } from "../db";
import * as clock from "./clock";
import { demoPerson } from "../../shared/demo-stand-ins";
import { type FlagOutcome, mayCloseFlag } from "../../shared/flag-outcome";

/**
 * How an investigation ended (table `bill_flag_outcomes`, rule flag-outcome): staff close an `action_requested`
 * flag; the outcome row and the flag's `completed` status are written together.
 */
type OutcomeRow = {
  bill_flag_id: number;
  outcome: FlagOutcome;
  credit_cents: number | null;
  note: string;
  user_id: number;
  closed_at: string;
  first_name: string;
  last_name: string;
};

/** The outcomes of these flags, by flag. */
export function flagOutcomes(db: DB, flagIds: number[]): Map<number, OutcomeRow> {
  const rows = flagIds.length
    ? (db
        .prepare(
          `SELECT o.*, u.first_name, u.last_name FROM bill_flag_outcomes o JOIN users u ON u.id = o.user_id
           WHERE o.bill_flag_id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(flagIds)) as OutcomeRow[])
    : [];
  return new Map(rows.map((r) => [r.bill_flag_id, r]));
}

/** One outcome as the api shows it; demo mode hides the name. */
export function outcomeJson(o: OutcomeRow, readerId: number, demo = false) {
  const person = demo ? demoPerson(o.user_id) : { firstName: o.first_name, lastName: o.last_name };
  return {
    outcome: o.outcome,
    credit_cents: o.credit_cents,
    note: o.note,
    by: { name: `${person.firstName} ${person.lastName}`.trim(), you: o.user_id === readerId },
    closed_at: o.closed_at,
  };
}

/**
 * Closes the flag if it is under investigation (call inside a transaction, with the outcome's email: jobs.ts
 * prepareFlagOutcome); answers whether it did. `at`: the instant it is closed (default: now).
 */
export function closeFlag(
  db: DB,
  flagId: number,
  userId: number,
  o: { outcome: FlagOutcome; creditCents: number | null; note: string },
  at = clock.nowIso(),
) {
  const row = db.prepare("SELECT status FROM bill_flags WHERE id = ?").get(flagId) as { status: string };
  if (!mayCloseFlag(row.status)) return false;
  db.prepare("UPDATE bill_flags SET status = 'completed', updated_at = ? WHERE id = ?").run(at, flagId);
  db.prepare(
    "INSERT INTO bill_flag_outcomes (bill_flag_id, outcome, credit_cents, note, user_id, closed_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(flagId, o.outcome, o.creditCents, o.note, userId, at);
  return true;
}
