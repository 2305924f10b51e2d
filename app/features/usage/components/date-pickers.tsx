import { Form, Link } from "@remix-run/react";
import { EARLIEST_CALENDAR_YEAR, formatCalendarDate, MONTH_LONG, MONTH_SHORT } from "~/lib/dates";
import { LinkTabs } from "~/ui/link-tabs";
import { UrlDialog } from "~/ui/url-dialog";
import {
  addMonths,
  isDayDisabled,
  isMonthDisabled,
  isYearDisabled,
  monthWeeks,
  yearGrid,
  ymd,
  type Period,
  type Today,
} from "../usage";
import { SubmitButton } from "~/ui/pending";

type Href = (params: Record<string, string | null | undefined>) => string;

export type PickerTab = "day" | "month" | "year";
export const isPickerTab = (v: unknown): v is PickerTab => v === "day" || v === "month" || v === "year";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/**
 * The date picker: Day, Month and Year tabs, each a plain GET form (period + start) with Apply and Cancel.
 * The calendar page shown (`cal`) and the tab live in the URL, so it works without JavaScript.
 */
export function DatePickerDialog({
  open,
  tab,
  cal,
  current,
  today,
  href,
  action,
}: {
  open: boolean;
  tab: PickerTab;
  cal: string | null;
  current: { period: Period; startDate: string };
  today: Today;
  href: Href;
  action: string;
}) {
  // Closing returns to the opener: with JavaScript UrlDialog focuses it; without, the fragment brings it into
  // view and makes it the starting point of the next Tab.
  const closeHref = `${href({})}#select-date`;
  const [cy, cm] = current.startDate.split("-").map(Number);
  const calMatch = /^(\d{4})(?:-(\d{2}))?$/.exec(cal ?? "");
  let year = calMatch ? Number(calMatch[1]) : cy;
  let month = calMatch?.[2] ? Number(calMatch[2]) : cm;
  if (year < EARLIEST_CALENDAR_YEAR || year > today.y) [year, month] = [cy, cm];
  if (month < 1 || month > 12 || (year === today.y && month > today.m))
    month = year === today.y ? today.m : 1;
  const tabs = (["day", "month", "year"] as const).map((v) => ({
    value: v,
    label: v[0].toUpperCase() + v.slice(1),
    href: href({ picker: "date", tab: v, cal }),
  }));
  return (
    <UrlDialog
      open={open}
      closeHref={closeHref}
      title="Select a date"
      description="Choose a day, a month or a year to show."
    >
      <LinkTabs tabs={tabs} value={tab} label="Date range">
        <Form method="get" action={action} className="picker-form stack" preventScrollReset>
          <input type="hidden" name="period" value={tab} />
          {tab === "day" ? (
            <DayGrid
              year={year}
              month={month}
              today={today}
              selected={current.period === "day" ? current.startDate : null}
              href={href}
            />
          ) : tab === "month" ? (
            <MonthGrid
              year={year}
              today={today}
              selected={current.period === "month" ? current.startDate : null}
              href={href}
            />
          ) : (
            <YearGrid today={today} selected={current.period === "year" ? current.startDate : null} />
          )}
          <div className="row picker-actions">
            <Link to={closeHref} replace preventScrollReset className="btn btn-secondary">
              Cancel
            </Link>
            <SubmitButton className="btn">Apply</SubmitButton>
          </div>
        </Form>
      </LinkTabs>
    </UrlDialog>
  );
}

function NavLink({
  to,
  disabled,
  label,
  children,
}: {
  to: string;
  disabled: boolean;
  label: string;
  children: string;
}) {
  return disabled ? (
    <span className="btn btn-ghost btn-small" aria-disabled="true" aria-label={label}>
      {children}
    </span>
  ) : (
    <Link to={to} replace preventScrollReset className="btn btn-ghost btn-small" aria-label={label}>
      {children}
    </Link>
  );
}

function DayGrid({
  year,
  month,
  today,
  selected,
  href,
}: {
  year: number;
  month: number;
  today: Today;
  selected: string | null;
  href: Href;
}) {
  const [py, pm] = addMonths(year, month, -1);
  const [ny, nm] = addMonths(year, month, 1);
  const mm = (y: number, m: number) => `${y}-${String(m).padStart(2, "0")}`;
  return (
    <fieldset className="picker-fieldset">
      <legend className="picker-legend">
        <span className="row picker-nav">
          <NavLink
            to={href({ picker: "date", tab: "day", cal: mm(py, pm) })}
            disabled={py < EARLIEST_CALENDAR_YEAR}
            label="Previous month"
          >
            ‹
          </NavLink>
          <span>
            {MONTH_LONG[month - 1]} {year}
          </span>
          <NavLink
            to={href({ picker: "date", tab: "day", cal: mm(ny, nm) })}
            disabled={isMonthDisabled(ny, nm, today)}
            label="Next month"
          >
            ›
          </NavLink>
        </span>
      </legend>
      <table className="calendar">
        <thead>
          <tr>
            {WEEKDAYS.map((d) => (
              <th key={d} scope="col">
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(year, month).map((week, wi) => (
            <tr key={wi}>
              {week.map((day, di) => (
                <td key={di}>
                  {day ? (
                    <label className="cal-cell">
                      <input
                        key={day}
                        type="radio"
                        name="start"
                        value={day}
                        required
                        defaultChecked={day === selected}
                        disabled={isDayDisabled(day, today)}
                        aria-label={formatCalendarDate(day)}
                      />
                      <span aria-hidden="true">{Number(day.slice(8))}</span>
                    </label>
                  ) : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </fieldset>
  );
}

function MonthGrid({
  year,
  today,
  selected,
  href,
}: {
  year: number;
  today: Today;
  selected: string | null;
  href: Href;
}) {
  return (
    <fieldset className="picker-fieldset">
      <legend className="picker-legend">
        <span className="row picker-nav">
          <NavLink
            to={href({ picker: "date", tab: "month", cal: String(year - 1) })}
            disabled={isYearDisabled(year - 1, today)}
            label="Previous year"
          >
            ‹
          </NavLink>
          <span>{year}</span>
          <NavLink
            to={href({ picker: "date", tab: "month", cal: String(year + 1) })}
            disabled={isYearDisabled(year + 1, today)}
            label="Next year"
          >
            ›
          </NavLink>
        </span>
      </legend>
      <div className="choice-grid">
        {MONTH_SHORT.map((name, i) => {
          const value = ymd(year, i + 1, 1);
          return (
            // Keyed by value: after "Previous year" a reused input would keep its checked state.
            <label key={value} className="choice-cell">
              <input
                type="radio"
                name="start"
                value={value}
                required
                defaultChecked={value === selected}
                disabled={isMonthDisabled(year, i + 1, today)}
                aria-label={`${MONTH_LONG[i]} ${year}`}
              />
              <span aria-hidden="true">{name}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

function YearGrid({ today, selected }: { today: Today; selected: string | null }) {
  return (
    <fieldset className="picker-fieldset">
      <legend className="picker-legend">Year</legend>
      <div className="choice-grid">
        {yearGrid(today).map((y) => {
          const value = ymd(y, 1, 1);
          return (
            <label key={y} className="choice-cell">
              <input
                type="radio"
                name="start"
                value={value}
                required
                defaultChecked={value === selected}
                disabled={isYearDisabled(y, today)}
              />
              <span>{y}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

type PickerBill = {
  id: number;
  statementDate: string;
  serviceStartDate: string;
  serviceEndDate: string;
  accountNumber?: string | null;
};

/** The bill picker: bills of the last 13 months as a GET form (period=bill, start=bill id). */
export function BillPickerDialog({
  open,
  bills,
  failed,
  selected,
  closeHref,
  action,
}: {
  open: boolean;
  bills: PickerBill[];
  failed: boolean;
  selected: string | null;
  closeHref: string;
  action: string;
}) {
  return (
    <UrlDialog
      open={open}
      closeHref={closeHref}
      title="Select a bill"
      description="Show the usage of one bill's service period."
    >
      {failed ? (
        <p role="alert">There was a problem loading your bills. Our team has been notified.</p>
      ) : bills.length === 0 ? (
        <p>No bills found at the moment</p>
      ) : (
        <Form method="get" action={action} className="picker-form stack" preventScrollReset>
          <input type="hidden" name="period" value="bill" />
          <fieldset className="picker-fieldset">
            <legend className="picker-legend">Bills of the last 13 months</legend>
            <ul className="bill-choices">
              {bills.map((b) => (
                <li key={b.id}>
                  <label className="bill-choice">
                    <input
                      type="radio"
                      name="start"
                      value={b.id}
                      required
                      defaultChecked={String(b.id) === selected}
                    />
                    <strong>Bill of {formatCalendarDate(b.statementDate)}</strong>
                    <span className="muted">
                      {formatCalendarDate(b.serviceStartDate)} – {formatCalendarDate(b.serviceEndDate)}
                      {b.accountNumber ? ` · Acct # ${b.accountNumber}` : ""}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <div className="row picker-actions">
            <Link to={closeHref} replace preventScrollReset className="btn btn-secondary">
              Cancel
            </Link>
            <SubmitButton className="btn">Apply</SubmitButton>
          </div>
        </Form>
      )}
      {failed || bills.length === 0 ? (
        <div className="row picker-actions">
          <Link to={closeHref} replace preventScrollReset className="btn btn-secondary">
            Cancel
          </Link>
        </div>
      ) : null}
    </UrlDialog>
  );
}
