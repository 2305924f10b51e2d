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
  { name: "locations query", method: "GET", path: "/locations", user: DANA, field: "q" },
];
