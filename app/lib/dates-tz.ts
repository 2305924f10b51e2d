import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";

// Apart from app/lib/dates.ts so pages that only show calendar dates (the email-link pages) do not load date-fns.

/** The day an instant falls on in a timezone, in the same words: "Nov 3, 2026". */
export function formatDayIn(instant: number | Date, timeZone: string): string {
  return format(new TZDate(+instant, timeZone), "MMM d, yyyy");
}
