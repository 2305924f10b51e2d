/**
 * What the api answers, and the Grid Services page says, when an event has started (or is no longer pending):
 * its opt-out is refused (rule grid-opt-out).
 */
export const OPT_OUT_STARTED_MESSAGE = "This event has already started: it can no longer be opted out of.";
