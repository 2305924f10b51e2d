/**
 * The pages an email's answer and unsubscribe links open (rule email-answer-links, docs/rules.md): their
 * strings and the states a token can be in. Dependency-free: these pages ship no application JavaScript. The
 * strings the bills feature shares with the api (shared/bill-flags.ts) come with the page's data
 * (`AnswerTarget`), so that module stays in the bills pages' chunk.
 */

/**
 * What a token is worth: usable, already used (the answer recorded, or the email already off; `kept`: an
 * unsubscribe link used before, whose email the person has turned on again since), expired, unknown.
 */
export type TokenState = "open" | "answered" | "done" | "kept" | "expired" | "invalid";

/** The api's refusal statuses for a token (docs/api-contract.md, Email answers). */
export function refusedTokenState(status: number): TokenState | null {
  if (status === 404 || status === 422) return "invalid";
  if (status === 409) return "answered";
  if (status === 410) return "expired";
  return null;
}

export const ANSWER_TEXT = {
  button: { dismissed: "Yes, this is expected", action_requested: "No, please investigate" },
  answeredHeading: "This bill issue has already been answered",
  answered: "This bill issue has already been answered. Nothing more is needed from this link.",
  expired: "This link has expired. You can still answer from the bill on your spending page once you log in.",
  invalid:
    "This link is not valid. It may be incomplete: open it again from the email, or log in to answer from your spending page.",
  failed: "Unable to process update",
} as const;

export const UNSUBSCRIBE_TEXT = {
  heading: "Unsubscribe",
  question: (what: string) => `Stop receiving ${what} by email?`,
  button: "Unsubscribe",
  done: (what: string) =>
    `You will no longer receive ${what} by email. You can turn them on again in My Preferences.`,
  doneHeading: "You are unsubscribed",
  kept: (what: string) =>
    `This link was already used. You have turned ${what} on again since then in My Preferences, and an old link does not change that.`,
  keptHeading: "Your choice stands",
  expired: "This unsubscribe link has expired. Log in and turn the email off in My Preferences.",
  invalid: "This unsubscribe link is not valid. Log in and turn the email off in My Preferences.",
  failed: "Something went wrong. Please try again, or turn the email off in My Preferences.",
} as const;

/** The HTTP status of a page showing a token in this state: an unknown link is 404, an expired one 410. */
export const tokenPageStatus = (state: TokenState | "failed") =>
  state === "invalid" ? 404 : state === "expired" ? 410 : 200;
