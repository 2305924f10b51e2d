import { getConfig } from "./config.server";

/**
 * The web tier's one notion of "now", for the few defaults it computes itself (today's date for the bill
 * window and the 45-day old-bill rule, the default grid-services range, the default compliance month).
 *
 * It follows the same `CLOCK_START` as the reference api (api/lib/clock.ts): the clock starts at that
 * instant and advances in real time; unset, it is the machine's clock. The embedded api is started with the
 * web's `CLOCK_START`, so the two agree; with an external `API_URL`, give both the same value (tests only).
 */
let offsetMs: number | undefined;
/** The offset `CLOCK_START` set, kept when a test hook first moves the clock. */
let startOffsetMs: number | undefined;

function offset() {
  if (offsetMs === undefined) {
    const start = getConfig().CLOCK_START;
    offsetMs = start ? Date.parse(start) - Date.now() : 0;
  }
  return offsetMs;
}

export const now = () => new Date(Date.now() + offset());

/**
 * The test hook POST /test-hooks/clock only (ENABLE_TEST_HOOKS): moves the web's clock to an instant, or with
 * null back to where `CLOCK_START` has it (api/lib/clock.ts#moveClock moves the api's).
 */
export function moveClock(atIso: string | null) {
  startOffsetMs ??= offset();
  offsetMs = atIso === null ? startOffsetMs : Date.parse(atIso) - Date.now();
}
