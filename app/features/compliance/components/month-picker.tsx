import { Form, Link, useLocation } from "@remix-run/react";
import { useState } from "react";
import { MONTH_SHORT } from "~/lib/dates";
import { useHydrated } from "~/ui/use-hydrated";
import { isFutureMonth, monthLabel, pickerYears } from "../compliance";
import { SubmitButton } from "~/ui/pending";

/**
 * Time Frame month picker: a GET form (month grid Jan..Dec, a year selector 12 years back, Cancel, Apply).
 * Apply sends pickerYear and pickerMonth; the loader turns them into period=month&start=YYYY-MM-01.
 * With JavaScript the months after this one are disabled while this year is chosen. Without it the year
 * select cannot re-render the grid, so no month is disabled in the HTML (December of last year is then one
 * step: pick the year, pick Dec, Apply); CSS greys out and blocks this year's future months while this year
 * is selected, and the server refuses a future month whatever is sent.
 */
export function MonthPicker({
  start,
  todayIso,
  keep,
}: {
  start: string;
  todayIso: string;
  keep: [string, string][];
}) {
  const today = new Date(`${todayIso}T00:00:00Z`);
  const [y, m] = start.split("-").map(Number);
  const [year, setYear] = useState(y);
  const location = useLocation();
  const hydrated = useHydrated();
  const thisYear = today.getUTCFullYear();
  return (
    <details className="month-picker" key={location.key}>
      <summary className="btn btn-secondary" data-testid="time-frame">
        <span className="muted">Time Frame:</span> {monthLabel(start)}
      </summary>
      <Form method="get" className="month-picker-panel card" preventScrollReset>
        {keep.map(([k, v], i) => (
          <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
        ))}
        <input type="hidden" name="period" value="month" />
        <div className="field">
          <label htmlFor="picker-year">Year</label>
          <select
            id="picker-year"
            name="pickerYear"
            className="select"
            value={year}
            onChange={(e) => setYear(Number(e.target.value))}
          >
            {pickerYears(today).map((yy) => (
              <option key={yy} value={yy} data-this-year={yy === thisYear ? "" : undefined}>
                {yy}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="month-grid">
          <legend>Month</legend>
          {MONTH_SHORT.map((name, i) => {
            const month = i + 1;
            const disabled = hydrated && isFutureMonth(year, month, today);
            const futureThisYear = isFutureMonth(thisYear, month, today);
            return (
              <label
                key={name}
                className={`month-cell${disabled ? " is-disabled" : ""}${futureThisYear ? " is-future-this-year" : ""}`}
              >
                <input
                  type="radio"
                  name="pickerMonth"
                  value={month}
                  defaultChecked={year === y && month === m}
                  disabled={disabled}
                />
                <span>{name}</span>
              </label>
            );
          })}
        </fieldset>
        <div className="row month-actions">
          <Link
            to={`${location.pathname}${location.search}`}
            replace
            preventScrollReset
            className="btn btn-secondary btn-small"
          >
            Cancel
          </Link>
          <SubmitButton className="btn btn-small">Apply</SubmitButton>
        </div>
      </Form>
    </details>
  );
}
