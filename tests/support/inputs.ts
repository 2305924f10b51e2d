/** Hostile values every field and query parameter is fed (issue: at least 12 per input). */
export const HOSTILE_VALUES: string[] = [
  "",
  "x".repeat(10_000),
  "Zoë Ünïcødé 北京 🔥",
  "\u202Eevil\u202C مرحبا",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "' OR '1'='1' --",
  "1; DROP TABLE users;--",
  "-1",
  "99999999999999999999999",
  "NaN",
  "[object Object]",
  "2026-02-30",
  "0000-00-00",
  "../../../etc/passwd",
  "%00%0d%0aSet-Cookie: x=1",
];

/**
 * The inputs of the product: query parameters of GET pages and fields of POST forms. `valid` holds the other
 * fields a form needs; `expect` is a validation message the page must show for a refused value (when the
 * field is validated), so the user sees it where they typed.
 */
export type InputCase = {
  name: string;
  method: "GET" | "POST";
  /** Path; for GET the field becomes a query parameter. */
  path: string;
  user: string | null;
  field: string;
  valid?: Record<string, string>;
  expect?: RegExp;
};

const DANA = "dana@harborcoffee.test";

export const INPUTS: InputCase[] = [
  { name: "login email (GET)", method: "GET", path: "/login", user: null, field: "email", expect: /Please enter a valid email address|We could not find an account/ },
  { name: "login next (GET)", method: "GET", path: "/login", user: null, field: "next" },
  {
    name: "password form",
    method: "POST",
    path: `/login?email=${encodeURIComponent(DANA)}`,
    user: null,
    field: "password",
    valid: { intent: "password", email: "alex@mapledental.test", next: "/" },
    expect: /Your email or password is incorrect|Password is required/,
  },
  {
    name: "password form email",
    method: "POST",
    path: `/login?email=${encodeURIComponent(DANA)}`,
    user: null,
    field: "email",
    valid: { intent: "password", password: "x", next: "/" },
    expect: /Please enter a valid email address|Your email or password is incorrect/,
  },
  {
    name: "code form",
    method: "POST",
    path: `/login?email=${encodeURIComponent(DANA)}`,
    user: null,
    field: "code",
    valid: { intent: "code", email: "alex@mapledental.test", next: "/" },
  },
  { name: "login intent", method: "POST", path: `/login?email=${encodeURIComponent(DANA)}`, user: null, field: "intent", valid: { email: DANA } },
  { name: "token login token", method: "POST", path: "/login/link", user: null, field: "token", valid: { next: "/" }, expect: /Invalid token\. Please try again\./ },
  { name: "token login next", method: "POST", path: "/login/link", user: null, field: "next", valid: { token: "not-a-token" } },
  { name: "token page query", method: "GET", path: "/login/link", user: null, field: "token" },
  { name: "reset token query", method: "GET", path: "/reset-password", user: null, field: "token" },
  {
    name: "reset password",
    method: "POST",
    path: "/reset-password?token=x",
    user: null,
    field: "password",
    valid: { token: "x", confirmPassword: "demo-pass-2024" },
    expect: /Password must contain at least 8 characters|Passwords must match|couldn&#x27;t change your password|invalid/,
  },
  { name: "locations search", method: "GET", path: "/locations", user: DANA, field: "q" },
  { name: "locations sort", method: "GET", path: "/locations", user: DANA, field: "sort" },
  { name: "location id in the path", method: "GET", path: "/locations/HOSTILE/control", user: DANA, field: "tab" },
  { name: "control room tab", method: "GET", path: "/locations/105/control", user: DANA, field: "tab" },
  { name: "control room card", method: "GET", path: "/locations/105/control", user: DANA, field: "card" },
  { name: "control room poll", method: "GET", path: "/locations/105/control", user: DANA, field: "poll" },
  { name: "control room watch", method: "GET", path: "/locations/105/control", user: DANA, field: "watch" },
  {
    name: "thermostat cool setpoint",
    method: "POST",
    path: "/locations/104/control",
    user: DANA,
    field: "coolSetpointF",
    valid: { intent: "save", thermostatId: "1011", mode: "cool", heatSetpointF: "68" },
  },
  {
    name: "thermostat mode",
    method: "POST",
    path: "/locations/104/control",
    user: DANA,
    field: "mode",
    valid: { intent: "save", thermostatId: "1011", coolSetpointF: "75", heatSetpointF: "68" },
  },
  { name: "thermostat id", method: "POST", path: "/locations/104/control", user: DANA, field: "thermostatId", valid: { intent: "save", mode: "cool" } },
  { name: "issue id", method: "POST", path: "/locations/105/control", user: DANA, field: "issueId", valid: { intent: "dismiss", thermostatId: "1015" } },
  { name: "spending account", method: "GET", path: "/locations/101/spending", user: DANA, field: "accountId" },
  { name: "bill flag id", method: "POST", path: "/locations/101/spending", user: DANA, field: "flagId", valid: { intent: "investigate", statementId: "1" }, expect: /Unable to process update/ },
  { name: "bill flag intent", method: "POST", path: "/locations/101/spending", user: DANA, field: "intent", valid: { statementId: "1", flagId: "1" } },
  { name: "usage period", method: "GET", path: "/locations/104/usage/demand", user: DANA, field: "period" },
  { name: "usage start", method: "GET", path: "/locations/104/usage/demand?period=day", user: DANA, field: "start" },
  { name: "usage type in the path", method: "GET", path: "/locations/104/usage/HOSTILE", user: DANA, field: "period" },
  { name: "usage picker", method: "GET", path: "/locations/104/usage/consumption", user: DANA, field: "picker" },
  { name: "grid search", method: "GET", path: "/grid-services", user: DANA, field: "q" },
  { name: "grid sort", method: "GET", path: "/grid-services", user: DANA, field: "sort" },
  { name: "grid page", method: "GET", path: "/grid-services", user: DANA, field: "page" },
  { name: "report start", method: "GET", path: "/override-report?period=month", user: DANA, field: "start" },
  { name: "report thermostat in the path", method: "GET", path: "/override-report/HOSTILE", user: DANA, field: "start" },
  { name: "report location filter", method: "GET", path: "/override-report", user: DANA, field: "buildingId" },
  { name: "report series", method: "GET", path: "/override-report/1003", user: DANA, field: "series" },
  { name: "connect step", method: "GET", path: "/authorize-arcadia", user: DANA, field: "step" },
  { name: "connect utility search", method: "GET", path: "/authorize-arcadia", user: DANA, field: "q" },
  { name: "connect utility", method: "GET", path: "/authorize-arcadia?step=review_accounts", user: DANA, field: "utility" },
  { name: "ConEd account numbers", method: "GET", path: "/authorize-arcadia?step=enter_coned_credentials&utility=prov_coned&op=add", user: DANA, field: "newAccount" },
  { name: "settings tab", method: "GET", path: "/settings", user: DANA, field: "tab" },
  { name: "preference type", method: "POST", path: "/settings", user: DANA, field: "type", valid: { intent: "preference", enabled: "true" } },
  { name: "team member", method: "POST", path: "/settings?tab=team", user: DANA, field: "userId", valid: { intent: "access-save" } },
  { name: "impersonation search", method: "GET", path: "/impersonate", user: "morgan@energyops.test", field: "q" },
  {
    name: "impersonation reason",
    method: "POST",
    path: "/impersonate",
    user: "morgan@energyops.test",
    field: "reason",
    valid: { intent: "start", clientId: "2" },
  },
  { name: "prospect first name", method: "POST", path: "/free-bill-health-check", user: null, field: "firstName", valid: { intent: "start", emailAddress: "p@x.test", companyName: "Co", arcadiaProvider: "prov_duke" } },
  { name: "prospect email", method: "POST", path: "/free-bill-health-check", user: null, field: "emailAddress", valid: { intent: "start", firstName: "P", companyName: "Co", arcadiaProvider: "prov_duke" } },
  { name: "prospect utility", method: "POST", path: "/free-bill-health-check", user: null, field: "arcadiaProvider", valid: { intent: "start", firstName: "P", emailAddress: "p@x.test", companyName: "Co" } },
  { name: "prospect search", method: "GET", path: "/free-bill-health-check", user: null, field: "q" },
  { name: "dismissal thermostat", method: "GET", path: "/dismiss-thermostat-issue?issueSlug=permanent_hold", user: DANA, field: "thermostatId", expect: /Submission Failed/ },
  { name: "fix-my-bill status", method: "GET", path: "/fix-my-bill/HOSTILE", user: null, field: "x" },
];
