import { type FlagOutcome } from "./flag-outcome";
import { type FlagPrice, priceMoney, rateChangeText } from "./flag-price";

/**
 * The spec's words for a bill flag (rule flag-headings, docs/rules.md): the web's spending page and the api's
 * Bill Audit Alert email say the same heading and the same question, so they share this one definition.
 */
export type FlagLike = {
  id: number;
  type: string;
  status: string;
  details?: { previousSupplier?: string | null } | null;
};

/** The question a Bill Audit Alert and an unanswered flag ask; the answer link's page asks the same. */
export const FLAG_QUESTION = "Did you expect this change?";

/**
 * What a flag's own figures say (rules flag-headings, flag-price, flag-outcome): the bill's price (whether its
 * rate per kWh rose, and by how much) and, once an investigation is closed, its outcome. Heading and copy are
 * written from them, so the words never contradict the amount shown under them.
 */
export type FlagFigures = {
  price?: Pick<FlagPrice, "kind" | "cents" | "change"> | null;
  outcome?: { outcome: FlagOutcome; creditCents: number | null } | null;
};

/** A closed investigation's heading, from its outcome: "Investigated: credit of $68.40 received". */
export function outcomeHeading(o: { outcome: FlagOutcome; creditCents: number | null }): string {
  if (o.outcome === "credit_received" && o.creditCents !== null)
    return `Investigated: credit of ${priceMoney(o.creditCents)} received`;
  if (o.outcome === "billing_correct") return "Investigated: the billing was correct";
  if (o.outcome === "closed_by_client") return "Closed at your request";
  return "Investigated: credit received";
}

/** Whether the bill's figures show the rate per kWh rose (a priced finding); unknown reads as no rise shown. */
const rose = (f?: FlagFigures) => f?.price?.kind === "priced";

/**
 * The heading of one flag (rule flag-headings, docs/rules.md): a closed investigation is headed by its outcome;
 * otherwise the spec's heading by type and status, except that a rate class change whose bill shows no rise of
 * the rate is not headed "increased" ("changed this account's rate class").
 */
export function flagHeading(flag: Pick<FlagLike, "type" | "status">, figures?: FlagFigures): string {
  if (flag.status === "completed" && figures?.outcome) return outcomeHeading(figures.outcome);
  if (flag.type === "supplier_change") {
    if (flag.status === "unacknowledged") return "Please verify energy supplier change";
    if (flag.status === "action_requested") return "Help Request Received — We're on it!";
    // dismissed; completed without a recorded outcome reads the same (the spec names no other heading).
    return "New supplier verified";
  }
  if (flag.type === "rate_class_change") {
    if (flag.status !== "unacknowledged") return "Utility delivery rate class updated";
    return figures && !rose(figures)
      ? "Your utility changed this account's rate class"
      : "Your utility delivery rate increased";
  }
  return "Bill issue";
}

/** What this bill measured of a rate class change, in place of a general "typically 50-70%" claim. */
function measured(figures?: FlagFigures) {
  const c = figures?.price?.change;
  if (!c) return "This bill gives no earlier rate of this account to measure the change against.";
  return c.after > c.before
    ? `On this bill the rate per kWh rose ${rateChangeText(c)}.`
    : `On this bill the rate per kWh did not rise: it went ${rateChangeText(c)}.`;
}

/** The explanation under a flag's heading (the copy notes of rule flag-headings, docs/rules.md). */
export function flagCopy(
  flag: Pick<FlagLike, "type" | "status" | "details">,
  supplier: string | null | undefined,
  figures?: FlagFigures,
) {
  const previous = flag.details?.previousSupplier;
  const to = supplier ?? "a new supplier";
  const what = flag.type === "supplier_change" ? `change of supplier to ${to}` : "delivery rate class change";
  const o = flag.status === "completed" ? figures?.outcome : null;
  if (o) {
    if (o.outcome === "credit_received") {
      const stake = figures?.price?.cents;
      const credit = o.creditCents === null ? "a credit" : priceMoney(o.creditCents);
      return `We investigated the ${what} and the utility credited this account ${credit}${stake ? ` of the ${priceMoney(stake)} at stake` : ""}.`;
    }
    if (o.outcome === "billing_correct") return `We investigated the ${what}: the billing was correct.`;
    return `The investigation of the ${what} was closed at your request.`;
  }
  if (flag.type === "supplier_change") {
    if (flag.status === "unacknowledged") {
      return `This bill lists ${to} as your energy supplier${previous ? ` instead of ${previous}` : ""}. ${FLAG_QUESTION} If not, we will look into it and respond by email within 1 business day.`;
    }
    if (flag.status === "action_requested")
      return `We are looking into the change of supplier to ${to} and will respond by email within 1 business day.`;
    return `${to} is confirmed as the energy supplier on this bill.`;
  }
  if (!figures) {
    // No figures given: the spec's general words (a caller that has the bill passes its figures).
    if (flag.status === "unacknowledged")
      return `Your utility moved this account to a different delivery rate class. Rate class changes typically mean 50-70% higher delivery cost. ${FLAG_QUESTION} If not, we will look into it and respond by email within 1 business day.`;
    if (flag.status === "action_requested")
      return "We are reviewing the delivery rate class change (typically 50-70% higher delivery cost) and will respond by email within 1 business day.";
    return "The delivery rate class change on this bill has been reviewed.";
  }
  if (flag.status === "unacknowledged") {
    return `Your utility moved this account to a different delivery rate class. ${measured(figures)} ${FLAG_QUESTION} If not, we will look into it and respond by email within 1 business day.`;
  }
  if (flag.status === "action_requested") {
    return `We are reviewing the delivery rate class change and will respond by email within 1 business day. ${measured(figures)}`;
  }
  return `The delivery rate class change on this bill has been reviewed. ${measured(figures)}`;
}

/** The two answers to a flag and their words: the email's buttons, the spending page's, the answer page's. */
export type FlagAnswerStatus = "dismissed" | "action_requested";
export const ANSWER_LABELS: Record<FlagAnswerStatus, string> = {
  dismissed: "Yes, this is expected",
  action_requested: "No, please investigate",
};
/** What may still be said once an answer is on record: the lead above the one button left. */
export const ANSWER_AGAIN: Record<FlagAnswerStatus, string> = {
  action_requested: "If you do not expect this change, you can still ask our team to investigate.",
  dismissed: "If this change is expected after all, you can change your answer.",
};
export const otherAnswer = (a: FlagAnswerStatus): FlagAnswerStatus =>
  a === "dismissed" ? "action_requested" : "dismissed";

/** Where an answer comes from: the signed-in spending page, or an answer link of an email (a bearer token). */
export type FlagAnswerSource = "app" | "email";

/**
 * The most answers a flag takes: enough for a wrong tap corrected several times by a few
 * colleagues, few enough that a forwarded alert cannot toggle a flag and fill its history.
 */
export const FLAG_ANSWER_LIMIT = 10;
export const FLAG_ANSWER_LIMIT_REACHED = `This bill issue has had ${FLAG_ANSWER_LIMIT} answers, the most it takes, so its answer can no longer be changed here. To change it, contact Customer Support.`;
/** An answer link asked to withdraw an investigation: only the signed-in page may (rule flag-answer-history). */
export const FLAG_WITHDRAW_SIGNED_IN =
  "If this change is expected after all, sign in and change your answer on the location's spending page: an email link can ask for an investigation but never withdraw one.";

/**
 * Whether a person's answer to a flag is recorded (rule flag-answer-history, docs/rules.md), from the flag's
 * status, whether the answer on record is that person's own, where the answer comes from and how many answers
 * the flag has had:
 * - `record`: an unacknowledged flag takes either answer; anyone who may see the bill asks for an investigation
 *   after "Yes, this is expected" was recorded (a second opinion is never lost; a deliberate deviation from seed
 *   2 §4, "dismissed is final"), from the page or an email; the person whose "No, please investigate" is on
 *   record may switch it to "Yes, this is expected" (a wrong tap), from the signed-in page only.
 * - `already`: that answer is on record (yours or another person's): nothing new is recorded.
 * - `signed-in`: an email link tried to withdraw its person's own investigation request: an answer link may
 *   escalate, never withdraw (a forwarded alert must not cancel an investigation).
 * - `limit`: the flag has had FLAG_ANSWER_LIMIT answers; nothing more is taken.
 * - `refused`: completed is final; another person's investigation request stays.
 */
export function decideFlagAnswer(
  status: string,
  answer: FlagAnswerStatus,
  onRecordIsYours: boolean,
  source: FlagAnswerSource = "app",
  answersSoFar = 0,
): "record" | "already" | "signed-in" | "limit" | "refused" {
  if (status === "completed") return "refused";
  if (status === answer) return "already";
  if (status === "action_requested" && !onRecordIsYours) return "refused";
  if (answersSoFar >= FLAG_ANSWER_LIMIT) return "limit";
  if (status === "unacknowledged") return "record";
  if (status === "dismissed") return answer === "action_requested" ? "record" : "refused";
  if (status === "action_requested") return source === "app" ? "record" : "signed-in";
  return "refused";
}

/** The answers a person may give to a flag now (the buttons shown): none when nothing can change. */
export const answersOpen = (
  status: string,
  onRecordIsYours: boolean,
  source: FlagAnswerSource = "app",
  answersSoFar = 0,
): FlagAnswerStatus[] =>
  (["dismissed", "action_requested"] as const).filter(
    (a) => decideFlagAnswer(status, a, onRecordIsYours, source, answersSoFar) === "record",
  );
