/**
 * The price of a rate-class-change or supplier-change finding, from the bill's own figures (rule flag-price,
 * docs/rules.md): (this bill's $/kWh − the previous bill's $/kWh of the same account) × this bill's kWh, in
 * cents. Each rate is taken as the bill states it to the tenth of a cent ($0.1612), so the inputs shown add up
 * to the amount shown: "$0.1612 → $0.1853 per kWh × 13,945 kWh = $336.07". Where there is no previous bill, or
 * the rate did not rise, there is no amount: a sentence says why instead. The web's spending page, its flag and
 * the api's Bill Audit Alert and bills CSV all use this one rule.
 */
export type PricedBill = { rateCents: number | null | undefined; kwh: number | null | undefined };

export type FlagPrice =
  /** `text` follows the label: the inputs and the amount, or why there is no amount. */
  | { kind: "priced"; cents: number; inputs: string; text: string; change: RateChange }
  | { kind: "no_rise"; cents: null; inputs: string; text: string; change: RateChange }
  | {
      kind: "no_previous" | "no_figures";
      cents: null;
      inputs: string | null;
      text: string;
      change?: undefined;
    };

/** The measured change of the rate per kWh, in ten-thousandths of a dollar as the bills state it (1612 = $0.1612). */
export type RateChange = { before: number; after: number };

// Built on first use, not when the module loads: a page that hydrates with this module must not load ICU's data
// (docs/architecture.md; tests/e2e/hydration-icu.spec.ts). Prices are written on the server.
let groupedFormat: Intl.NumberFormat | undefined;
let dollarsFormat: Intl.NumberFormat | undefined;
const grouped = {
  format: (n: number) =>
    (groupedFormat ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 })).format(n),
};
const dollars = {
  format: (n: number) =>
    (dollarsFormat ??= new Intl.NumberFormat("en-US", {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    })).format(n),
};
const finite = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

/** A rate in cents per kWh as dollars with 4 decimals, in ten-thousandths of a dollar (16.123 → 1612). */
const tenThousandths = (centsPerKwh: number) => Math.round(centsPerKwh * 100);
const rateText = (t: number) => `$${(t / 10000).toFixed(4)}`;
/** Cents as "$1,234.56". */
export const priceMoney = (cents: number) =>
  `${cents < 0 ? "-" : ""}$${dollars.format(Math.abs(cents) / 100)}`;

/**
 * The at-stake label every place shows before the sentence: it says what the figure covers, the rate per kWh
 * alone (not the bill's other charges), so it is not read as the change of the bill's total.
 */
export const PRICE_LABEL = "At stake on this bill, from the rate per kWh alone";

/** The measured change of the rate in words: "from $0.1612 to $0.1653 per kWh (+2.5%)". */
export function rateChangeText(c: RateChange) {
  const pct = c.before > 0 ? Math.round(((c.after - c.before) / c.before) * 1000) / 10 : null;
  const signed = pct === null ? "" : ` (${pct > 0 ? "+" : pct < 0 ? "−" : "±"}${Math.abs(pct).toFixed(1)}%)`;
  return `from ${rateText(c.before)} to ${rateText(c.after)} per kWh${signed}`;
}

/** The previous bill of the same account: only its rate counts. */
export type PreviousBillRate = { rateCents: number | null | undefined };

export function flagPrice(bill: PricedBill, previous: PreviousBillRate | null | undefined): FlagPrice {
  if (!finite(bill.rateCents) || !finite(bill.kwh)) {
    return {
      kind: "no_figures",
      cents: null,
      inputs: null,
      text: "not priced, this bill does not state both a rate and a consumption",
    };
  }
  const now = tenThousandths(bill.rateCents);
  if (!previous || !finite(previous.rateCents)) {
    return {
      kind: "no_previous",
      cents: null,
      inputs: null,
      text: "not priced, there is no previous bill of this account to compare the rate with",
    };
  }
  const before = tenThousandths(previous.rateCents);
  const inputs = `${rateText(before)} → ${rateText(now)} per kWh`;
  if (now <= before) {
    return {
      kind: "no_rise",
      cents: null,
      inputs,
      text: `nothing, the rate did not rise (${inputs})`,
      change: { before, after: now },
    };
  }
  // (now − before) ten-thousandths of a dollar × kWh = hundredths of a cent; to the cent, halves up.
  const cents = Math.round(((now - before) * bill.kwh) / 100 + 1e-9);
  const full = `${inputs} × ${grouped.format(bill.kwh)} kWh = ${priceMoney(cents)}`;
  return { kind: "priced", cents, inputs: full, text: full, change: { before, after: now } };
}

/** The one line every place shows: "At stake on this bill: $0.1612 → $0.1853 per kWh × 13,945 kWh = $336.07." */
export const priceLine = (p: FlagPrice) => `${PRICE_LABEL}: ${p.text}.`;
