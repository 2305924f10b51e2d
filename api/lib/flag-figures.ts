import type { DB } from "../db";
import { flagOutcomes } from "./flag-outcomes";
import { PREVIOUS_BILL_COLUMNS, type PreviousBillColumns } from "./previous-bill";
import { type FlagFigures, flagHeading } from "../../shared/bill-flags";
import { type FlagPrice, flagPrice } from "../../shared/flag-price";

/**
 * A flag's own figures (rule flag-headings): its bill's price against the previous bill of the account (rule
 * flag-price) and, once closed, its outcome (rule flag-outcome), read together for several flags. The api's
 * words for a flag (the answer page's heading, the bills CSV's Bill Issues, the outcome email) come from these,
 * as the web's spending page writes them from the same figures.
 */
export type FlagFiguresRow = FlagFigures & { price: FlagPrice; heading: string };

export function flagFigures(db: DB, flagIds: number[]): Map<number, FlagFiguresRow> {
  if (!flagIds.length) return new Map();
  const rows = db
    .prepare(
      `SELECT f.id, f.type, f.status, s.rate_cents, s.consumption_kwh, ${PREVIOUS_BILL_COLUMNS("s")}
       FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id
       WHERE f.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(flagIds)) as ({
    id: number;
    type: string;
    status: string;
    rate_cents: number | null;
    consumption_kwh: number | null;
  } & PreviousBillColumns)[];
  const outcomes = flagOutcomes(db, flagIds);
  return new Map(
    rows.map((r) => {
      const price = flagPrice(
        { rateCents: r.rate_cents, kwh: r.consumption_kwh },
        r.previous_bill_id === null ? null : { rateCents: r.previous_rate_cents },
      );
      const o = r.status === "completed" ? outcomes.get(r.id) : undefined;
      const outcome = o ? { outcome: o.outcome, creditCents: o.credit_cents } : null;
      return [r.id, { price, outcome, heading: flagHeading(r, { price, outcome }) }];
    }),
  );
}
