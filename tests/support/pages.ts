/**
 * Every page of the product with the upstream call its screen depends on and the spec's error message for
 * that screen when the call fails. The reliability, hostile-input and security suites all read this list.
 */
export type PageCase = {
  name: string;
  path: string;
  /** Who views it; null for public pages. */
  user: string | null;
  /** The upstream call that, when it fails, must produce `errorText`. */
  call: RegExp;
  /** The spec's error message for the screen (or the global fallback). */
  errorText: string;
  /** A different spec message for some faults (e.g. a 404 of the login options means "no account"). */
  faultText?: Partial<Record<string, string>>;
  /** The page's status for some faults (default 200), e.g. 404 when the upstream says the object is gone. */
  faultStatus?: Partial<Record<string, number>>;
  /** Faults that legitimately lead elsewhere (e.g. 404 of a location → /locations), with the expected target. */
  redirects?: Partial<Record<string, RegExp>>;
};

export const DANA = "dana@harborcoffee.test";

export const PAGES: PageCase[] = [
  {
    name: "login options",
    path: `/login?email=${encodeURIComponent(DANA)}`,
    user: null,
    call: /^\/users\/[^/]+\/login-options$/,
    errorText: "Something went wrong",
    faultText: { "404": "We could not find an account for that email address" },
  },
  {
    name: "locations dashboard",
    path: "/locations",
    user: DANA,
    call: /^\/buildings$/,
    errorText: "Unable to fetch locations.",
  },
  {
    name: "locations dashboard (advisor summary)",
    path: "/locations",
    user: DANA,
    call: /^\/client\/\d+\/energy-advisor-buildings$/,
    errorText: "Unable to fetch locations.",
  },
  {
    name: "control room",
    path: "/locations/105/control",
    user: DANA,
    call: /^\/building\/\d+\/thermostats$/,
    errorText:
      "Unable to load thermostat. Please try refreshing the page. If the issue keeps happening, contact Customer Support.",
    redirects: { "404": /^\/locations$/ },
  },
  {
    name: "spending",
    path: "/locations/101/spending",
    user: DANA,
    call: /^\/building\/\d+\/bill-statements$/,
    errorText: "There was a problem loading your bills. Our team has been notified.",
    redirects: { "404": /^\/locations$/ },
  },
  {
    name: "usage demand",
    path: "/locations/104/usage/demand?period=month&start=2026-10-01",
    user: DANA,
    call: /^\/insights\/\d+\/energy-demand$/,
    errorText: "Error loading data",
    redirects: { "404": /^\/locations$/ },
  },
  {
    name: "usage consumption",
    path: "/locations/104/usage/consumption?period=year&start=2025-01-01",
    user: DANA,
    call: /^\/insights\/\d+\/energy-consumption$/,
    errorText: "Error loading data",
    redirects: { "404": /^\/locations$/ },
  },
  {
    name: "impersonate (staff)",
    path: "/impersonate",
    user: "morgan@energyops.test",
    call: /^\/clients$/,
    errorText: "Unable to fetch clients.",
  },
  {
    name: "investigations (staff)",
    path: "/investigations",
    user: "morgan@energyops.test",
    call: /^\/investigations$/,
    errorText: "Unable to fetch investigations.",
  },
  {
    name: "thermostat dismissal link",
    path: "/dismiss-thermostat-issue?thermostatId=1030&issueSlug=permanent_hold",
    user: DANA,
    // The link's GET names the thermostat in one call, GET /thermostats/{id} (it dismisses only on POST).
    call: /^\/thermostats\/\d+$/,
    errorText: "Submission Failed",
  },
  {
    name: "grid services",
    path: "/grid-services",
    user: DANA,
    call: /^\/insights\/\d+\/dispatches$/,
    errorText:
      "An Error Occurred. Please try again. If the issue persist, please reach out to your Energy Advisor.",
  },
  {
    name: "compliance report",
    path: "/override-report?period=month&start=2026-10-01",
    user: DANA,
    call: /^\/override-report\/\d+\/[\d-]+\/[\d-]+$/,
    errorText: "Unable to load the schedule compliance report. Please try again.",
  },
  {
    name: "compliance report, one thermostat",
    path: "/override-report/1003?period=month&start=2026-10-01",
    user: DANA,
    call: /^\/thermostat\/\d+\/history\//,
    errorText: "No thermostat data found for the selected date range.",
    faultText: { "404": "Thermostat not found" },
    faultStatus: { "404": 404 },
  },
  {
    // The one-thermostat view's Least Compliant Days: a failure is the report's error state in that card (not
    // the empty table's "N/A") and the failure's status, like the chart's history (ADR 0009).
    name: "compliance report, one thermostat's least compliant days",
    path: "/override-report/1003?period=month&start=2026-10-01",
    user: DANA,
    call: /^\/override-report\/worst-performing-days\//,
    errorText: "No thermostat data found for the selected date range.",
  },
  {
    name: "accounts",
    path: "/accounts",
    user: DANA,
    call: /^\/accounts$/,
    errorText: "An error has occurred, please try again.",
  },
  {
    name: "connect utility accounts",
    path: "/authorize-arcadia",
    user: DANA,
    call: /^\/arcadia-utilities$/,
    errorText: "An error has occurred, please try again.",
  },
  {
    name: "onboarding",
    path: "/onboarding",
    user: DANA,
    call: /^\/onboarding-steps\/\d+$/,
    errorText: "An error has occurred, please try again.",
  },
  {
    name: "settings preferences",
    path: "/settings",
    user: DANA,
    call: /^\/communication-preferences$/,
    errorText: "An error has occurred, please try again.",
  },
  {
    name: "settings team",
    path: "/settings?tab=team",
    user: DANA,
    call: /^\/users\/\d+$/,
    errorText: "An error has occurred, please try again.",
  },
  {
    name: "free bill health check",
    path: "/free-bill-health-check",
    user: null,
    call: /^\/arcadia-utilities$/,
    errorText: "An error has occurred, please try again.",
  },
];
