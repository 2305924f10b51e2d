/**
 * The control room's card statuses in priority order and their labels (rule card-display-status,
 * docs/rules.md). A leaf module: the email-link pages (the dismissal page) use the labels without the rest of
 * the thermostat rules and their date libraries.
 */
export const CARD_STATUSES = [
  "unlinked",
  "unreachable",
  "event",
  "schedule-unavailable",
  "resolving",
  "dismissed",
  "inactive-schedule",
  "inefficient-schedule",
  "system-performance",
  "following-schedule",
] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

export const STATUS_LABELS: Record<CardStatus, string> = {
  unlinked: "unlinked device",
  unreachable: "unreachable",
  event: "event in progress",
  "schedule-unavailable": "schedule unavailable",
  resolving: "resolving issue",
  dismissed: "issue dismissed",
  "inactive-schedule": "inactive schedule",
  "inefficient-schedule": "inefficient schedule",
  "system-performance": "system performance",
  "following-schedule": "following schedule",
};

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
