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
];
