/**
 * The instant every test server's clock starts at (`CLOCK_START`, api/lib/clock.ts and
 * app/server/clock.server.ts): the e2e servers, the reliability and the security suites. The suites then
 * see the same demo whatever the hour they run at. `TEST_CLOCK_START` runs them at another instant (the
 * commit that set them lists the instants they were run at).
 *
 * 19:30 UTC by default: the evening hours, when the seed used to put grid events under way, stay covered.
 */
export const TEST_CLOCK_START = process.env.TEST_CLOCK_START || "2026-11-18T19:30:00.000Z";

/** The test servers' "now" as a calendar date: what a page shows as today (UTC). */
export const testToday = () => {
  const d = new Date(TEST_CLOCK_START);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
};
