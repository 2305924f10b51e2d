import { Form, Link, useLocation } from "@remix-run/react";
import { useState } from "react";
import { MONTH_SHORT } from "~/lib/dates";
import { isFutureMonth, monthLabel, pickerYears } from "../compliance";
import { SubmitButton } from "~/ui/pending";

/**
 * Time Frame month picker: a GET form (month grid Jan..Dec, a year selector 12 years back, Cancel, Apply).
 * Apply sends pickerYear and pickerMonth; the loader turns them into period=month&start=YYYY-MM-01.
 * Without JavaScript the future months of the shown year are disabled and the server refuses the rest.
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
              <option key={yy} value={yy}>
                {yy}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="month-grid">
          <legend>Month</legend>
          {MONTH_SHORT.map((name, i) => {
            const month = i + 1;
            const disabled = isFutureMonth(year, month, today);
            return (
              <label key={name} className={`month-cell${disabled ? " is-disabled" : ""}`}>
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
