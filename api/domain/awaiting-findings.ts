/**
 * The findings awaiting an answer at each location (rule rundown-findings, docs/rules.md), as the Weekly Rundown
 * reports them: how many, and what they put at stake, summed as the findings ledger sums its rows (rule
 * findings-totals): a bill's dollars once, carried by the bill's first priced finding (the lowest flag id,
 * whatever its status), so a second flag of the bill adds nothing, and the rundown's figure is the sum of the
 * ledger's "Awaiting your answer" rows of that location. Pure: the job reads the findings (api/domain/findings.ts).
 */

/** One finding: its flag and bill (none for a missing bill), its status, where, and its price in cents. */
export type StakedFinding = {
  flagId: number | null;
  billId: number | null;
  status: string;
  locationId: number;
  cents: number | null;
};

/** A finding waits for the client's answer while its flag is unacknowledged (the ledger's "Awaiting your answer"). */
export const AWAITING_ANSWER = "unacknowledged";

export function awaitingByLocation(
  findings: StakedFinding[],
): Map<number, { count: number; stakeCents: number }> {
  const carrier = new Map<number, number>();
  for (const f of findings) {
    if (f.billId === null || f.flagId === null || f.cents === null) continue;
    const c = carrier.get(f.billId);
    if (c === undefined || f.flagId < c) carrier.set(f.billId, f.flagId);
  }
  const out = new Map<number, { count: number; stakeCents: number }>();
  for (const f of findings) {
    if (f.status !== AWAITING_ANSWER) continue;
    const carries = f.billId !== null && f.cents !== null && carrier.get(f.billId) === f.flagId;
    const t = out.get(f.locationId) ?? { count: 0, stakeCents: 0 };
    out.set(f.locationId, { count: t.count + 1, stakeCents: t.stakeCents + (carries ? f.cents! : 0) });
  }
  return out;
}
