/**
 * The reference api's one notion of "now". Every seed and every time comparison (events in progress, last
 * seen, token and session expiry, old bills, default months, pending vendor commands) reads it here.
 *
 * `CLOCK_START` (an ISO instant) sets where the clock starts: from then on it advances in real time, so
 * simulated delays still elapse. The test servers start it at a fixed instant, which makes every suite
 * independent of the hour it runs at. Unset, it is the machine's clock.
 */
let offsetMs = 0;
/** The offset `CLOCK_START` set: where `moveClock(null)` puts the clock back. */
let startOffsetMs = 0;

export function parseClockStart(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(`CLOCK_START: not an ISO date-time: ${value}`);
  return ms;
}

/** Starts the clock at `startIso` (or the machine's clock when it is undefined). */
export function setClockStart(startIso: string | undefined) {
  const start = parseClockStart(startIso);
  offsetMs = startOffsetMs = start === undefined ? 0 : start - Date.now();
}

/**
 * The test hook POST /dev/clock only (ENABLE_TEST_HOOKS): moves the clock to `atIso` (from then on advancing
 * in real time), or with null back to where `CLOCK_START` has it now. The e2e suite runs a page at the US
 * month-end evening hours this way (rule location-today).
 */
export function moveClock(atIso: string | null) {
  if (atIso === null) offsetMs = startOffsetMs;
  else {
    const at = parseClockStart(atIso);
    if (at === undefined) throw new Error("moveClock: an ISO date-time or null");
    offsetMs = at - Date.now();
  }
}

export const now = () => new Date(Date.now() + offsetMs);
export const nowMs = () => Date.now() + offsetMs;
export const nowIso = () => now().toISOString();
