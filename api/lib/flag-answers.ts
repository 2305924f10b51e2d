import type { DB } from "../db";
import * as clock from "./clock";
import { decideFlagAnswer, type FlagAnswerSource, type FlagAnswerStatus } from "../../shared/bill-flags";
import { demoPerson } from "../../shared/demo-stand-ins";

/**
 * The answers of a bill flag (table `bill_flag_answers`, rule flag-answer-history): who answered what, when
 * and from where. The flag's status is the answer on record; `recordFlagAnswer` decides with the shared rule
 * whether a new answer is taken, and writes the status and the history row together (in the caller's
 * transaction), so the two never disagree.
 */

export type AnswerSource = FlagAnswerSource;

type AnswerRow = {
  id: number;
  bill_flag_id: number;
  user_id: number;
  answer: FlagAnswerStatus;
  source: AnswerSource;
  answered_at: string;
  first_name: string;
  last_name: string;
};

const SELECT = `SELECT a.*, u.first_name, u.last_name FROM bill_flag_answers a JOIN users u ON u.id = a.user_id`;

/** The answers of these flags, oldest first, by flag. */
export function flagAnswers(db: DB, flagIds: number[]): Map<number, AnswerRow[]> {
  const rows = flagIds.length
    ? (db
        .prepare(`${SELECT} WHERE a.bill_flag_id IN (SELECT value FROM json_each(?)) ORDER BY a.id`)
        .all(JSON.stringify(flagIds)) as AnswerRow[])
    : [];
  const out = new Map<number, AnswerRow[]>();
  for (const r of rows) out.set(r.bill_flag_id, [...(out.get(r.bill_flag_id) ?? []), r]);
  return out;
}

/** The answer on record: the newest row whose answer is the flag's status (null when none says who). */
export function answerOnRecord(status: string, answers: AnswerRow[] | undefined): AnswerRow | null {
  const last = answers?.at(-1);
  return last && last.answer === status ? last : null;
}

/** One answer as the api shows it; `you` is whether the reader gave it; demo mode hides the name. */
export function answerJson(a: AnswerRow, readerId: number, demo = false) {
  const person = demo ? demoPerson(a.user_id) : { firstName: a.first_name, lastName: a.last_name };
  return {
    answer: a.answer,
    by: { name: `${person.firstName} ${person.lastName}`.trim(), you: a.user_id === readerId },
    source: a.source,
    answered_at: a.answered_at,
  };
}

/**
 * Records a person's answer to a flag if the rule takes it (with where it comes from, and the flag's answers so
 * far against FLAG_ANSWER_LIMIT): `record` writes the status and the history row; every other decision writes
 * nothing.
 */
export function recordFlagAnswer(
  db: DB,
  flag: { id: number; status: string },
  userId: number,
  answer: FlagAnswerStatus,
  source: AnswerSource,
) {
  const answers = flagAnswers(db, [flag.id]).get(flag.id) ?? [];
  const onRecord = answerOnRecord(flag.status, answers);
  const decision = decideFlagAnswer(
    flag.status,
    answer,
    onRecord?.user_id === userId,
    source,
    answers.length,
  );
  if (decision !== "record") return { decision, onRecord };
  const at = clock.nowIso();
  db.prepare("UPDATE bill_flags SET status = ?, updated_at = ? WHERE id = ?").run(answer, at, flag.id);
  db.prepare(
    "INSERT INTO bill_flag_answers (bill_flag_id, user_id, answer, source, answered_at) VALUES (?, ?, ?, ?, ?)",
  ).run(flag.id, userId, answer, source, at);
  return { decision, onRecord };
}
