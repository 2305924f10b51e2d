/**
 * A dollar amount typed by a person (rule money-amount-input, docs/rules.md), as whole cents: "$1,205.00",
 * "1205", "182.5" and " 12.05 " are amounts; a comma is only ever a thousands separator, between groups of
 * exactly three digits ("12,05", "12,0.5", "1,2345" are refused, never read as $1,205.00 or $120.50). At most 9 whole digits and 2 decimals; no sign, no exponent. Integer arithmetic: no float
 * rounding. Answers null for an empty field, "invalid" for anything else that is not an amount.
 */
export function parseDollarAmount(text: string | null | undefined): number | null | "invalid" {
  const t = (text ?? "").trim().replace(/^\$\s*/, "");
  if (!t) return null;
  const amount = /^(\d{1,9}|\d{1,3}(?:,\d{3}){1,2})(?:\.(\d{1,2}))?$/.exec(t);
  if (!amount) return "invalid";
  const whole = Number(amount[1].replace(/,/g, ""));
  const cents = Number((amount[2] ?? "").padEnd(2, "0"));
  return whole * 100 + cents;
}

/** What a refused amount says (the field keeps what was typed). */
export const DOLLAR_AMOUNT_INVALID =
  "Enter the credit as an amount above $0.00, in dollars and cents, with commas only between thousands (1,205.00)";
