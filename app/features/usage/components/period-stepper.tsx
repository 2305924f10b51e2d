import { Link } from "@remix-run/react";
import { isSteppedPeriod, stepStart } from "../period-range";
import type { Period, Today } from "../usage";

const NOUN = { day: "day", week: "week", month: "month", year: "year" } as const;

/**
 * ‹ › next to the period heading: plain links to the previous and next period (they work without JavaScript),
 * not links (aria-disabled) at the ends of the allowed range. Nothing for a bill period.
 */
export function PeriodStepper({
  period,
  start,
  today,
  href,
}: {
  period: Period;
  start: string;
  today: Today;
  href: (start: string) => string;
}) {
  if (!isSteppedPeriod(period)) return null;
  const step = (dir: -1 | 1, glyph: string, label: string) => {
    const to = stepStart(period, start, dir, today);
    return to ? (
      <Link
        to={href(to)}
        className="btn btn-secondary btn-small"
        aria-label={label}
        rel={dir < 0 ? "prev" : "next"}
      >
        <span aria-hidden="true">{glyph}</span>
      </Link>
    ) : (
      <span
        role="link"
        aria-disabled="true"
        aria-label={label}
        className="btn btn-secondary btn-small"
        style={{ opacity: 0.45, cursor: "not-allowed" }}
      >
        <span aria-hidden="true">{glyph}</span>
      </span>
    );
  };
  return (
    <div className="row period-stepper" role="group" aria-label="Period" data-testid="period-stepper">
      {step(-1, "‹", `Previous ${NOUN[period]}`)}
      {step(1, "›", `Next ${NOUN[period]}`)}
    </div>
  );
}
