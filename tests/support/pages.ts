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
    errorText: "Unable to load thermostat. Please try refreshing the page. If the issue keeps happening, contact Customer Support.",
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
    name: "thermostat dismissal link",
    path: "/dismiss-thermostat-issue?thermostatId=1030&issueSlug=permanent_hold",
    user: DANA,
    call: /^\/thermostats\/dismiss-audit-issue\//,
    errorText: "Submission Failed",
  },
];
