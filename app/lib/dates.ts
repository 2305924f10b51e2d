/** "January" … "December". */
/** The calendars' earliest year (the spec's "Picker earliest year 2021"): no picker or dated URL goes before it. */
export const EARLIEST_CALENDAR_YEAR = 2021;

export const MONTH_LONG = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "Jan" … "Dec". */
export const MONTH_SHORT = MONTH_LONG.map((m) => m.slice(0, 3));

/**
 * A calendar date as users read it: "2026-11-12" → "Nov 12, 2026". Calendar dates (bills, date ranges) have no
 * timezone, so none is applied. Anything that is not a YYYY-MM-DD date comes back as it is.
 */
export function formatCalendarDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const month = m ? MONTH_SHORT[Number(m[2]) - 1] : undefined;
  if (!m || !month || Number(m[3]) < 1) return iso;
  return `${month} ${Number(m[3])}, ${Number(m[1])}`;
}

/**
 * Order of two ISO dates or date-times ("2026-11-12", "2026-11-12T09:30"): they sort as plain strings. Not
 * `localeCompare`, which applies a locale's collation they do not need and, on its first use in a browser,
 * loads ICU's collation data: tens of milliseconds of the hydration task on a slow phone.
 */
export const compareIso = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
