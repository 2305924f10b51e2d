import { z } from "zod";

/**
 * A calendar date in a query or path parameter: "YYYY-MM-DD" that names a real day (2026-02-30 is refused,
 * where `Date.parse` alone would roll it over to March 2). The messages are the api's validation messages.
 */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine(
    (s) =>
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    "must be a valid date",
  );
