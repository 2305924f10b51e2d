/**
 * The issue email's dismissal link (rule dismissal-link, docs/rules.md): the GET only names the thermostat
 * and the issue and offers one button; the POST dismisses. Pure parts the page's component uses too (no zod
 * here: the page is opened from an email, and its JavaScript stays small).
 */

export const DISMISSAL_PATH = "/dismiss-thermostat-issue";

/** The link's (and the form's) two parameters (parsed by `parseDismissal`, dismissal.server.ts). */
export type DismissalParams = { thermostatId: number; issueSlug: string };

/** The page's own strings (the spec gives only the result strings, in `MESSAGES`). */
export const DISMISSAL_TEXT = {
  heading: "Dismiss this thermostat issue?",
  explanation: "We will stop flagging this issue for this thermostat.",
  button: "Dismiss issue",
} as const;

/** The link (and form action) for the given parameters. */
export const dismissalHref = ({ thermostatId, issueSlug }: DismissalParams) =>
  `${DISMISSAL_PATH}?${new URLSearchParams({ thermostatId: String(thermostatId), issueSlug }).toString()}`;
