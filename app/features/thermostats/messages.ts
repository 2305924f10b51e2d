/** The control room's and the dismissal page's strings (rules action-toasts and dismissal-link, docs/rules.md), dependency-free so any page may import them. */
export const MESSAGES = {
  title: "Thermostats",
  empty:
    "There are no thermostats integrated for this location. This could be due to installations in progress or limitations on equipment.",
  loadError:
    "Unable to load thermostat. Please try refreshing the page. If the issue keeps happening, contact Customer Support.",
  submitted: "Thermostat update submitted",
  updateFailed: "Unable to update Thermostat settings",
  /**
   * The line after it when the change got no answer although it may have reached the api (the connection
   * closed, a time-out): where to see whether it went through, and that saving it again is safe (ADR 0010).
   */
  maybeApplied:
    "The change may have gone through all the same: the latest change on this card shows whether it did. Saving the same change again is safe, it is never sent twice.",
  /** Save refused for an unlinked device (status -2): the card already says we cannot read or change it. */
  unlinkedRefused:
    "This thermostat is no longer linked to its vendor account, so its settings cannot be changed. Reconnect it in the vendor's app first.",
  /** Change settings on a device that is not responding: said before Save, not 20 seconds after it. */
  unreachableChange:
    "This thermostat is not responding right now. A change you save is sent, but it fails if the thermostat does not answer in time; this card then says so.",
  completed: (name: string) => `Action completed for Thermostat: ${name}`,
  failed: (name: string) => `Failed action for Thermostat: ${name}`,
  dismissed: "Device issue dismissed.",
  resolving: "resolving issue",
  feedbackReceived: "Thermostat feedback received",
  submissionFailed: "Submission Failed",
  submissionFailedBody:
    "Something went wrong. Our engineering team has been notified and will remedy this issue.",
  returnToDashboard: "Return to Dashboard",
} as const;
