import { z } from "zod";
import { STATUS_LABELS } from "./thermostats";

/**
 * The issue email's dismissal link (rule dismissal-link, docs/rules.md): the GET only names the thermostat
 * and the issue and offers one button; the POST dismisses. Pure parts, shared by the loader and the action.
 */

export const DISMISSAL_PATH = "/dismiss-thermostat-issue";

/** The link's (and the form's) two parameters; anything else is "Submission Failed". */
export const dismissalSchema = z.object({
  thermostatId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  issueSlug: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,100}$/),
});
export type DismissalParams = z.infer<typeof dismissalSchema>;

/** The page's own strings (the spec gives only the result strings, in `MESSAGES`). */
export const DISMISSAL_TEXT = {
  heading: "Dismiss this thermostat issue?",
  explanation: "We will stop flagging this issue for this thermostat.",
  button: "Dismiss issue",
  alreadyDismissed: "This issue is already dismissed.",
} as const;

const LABELS: Record<string, string> = {
  permanent_hold: capitalise(STATUS_LABELS["inactive-schedule"]),
  unchanging_schedule: capitalise(STATUS_LABELS["inefficient-schedule"]),
};

function capitalise(s: string) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A readable name for an issue slug: the card's wording for schedule issues, otherwise the slug in words. */
export function issueLabel(slug: string): string {
  if (Object.prototype.hasOwnProperty.call(LABELS, slug)) return LABELS[slug];
  const words = slug.split("_").filter(Boolean).join(" ");
  return words ? capitalise(words) : slug;
}

/** The link (and form action) for the given parameters. */
export const dismissalHref = ({ thermostatId, issueSlug }: DismissalParams) =>
  `${DISMISSAL_PATH}?${new URLSearchParams({ thermostatId: String(thermostatId), issueSlug }).toString()}`;
