const BASE = "http://safe.invalid";

function hasControlOrBackslash(value: string) {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x5c) return true;
  }
  return false;
}

/** A path that a browser (or a proxy that decodes once more) would read as another host: `//x`, `/\x`. */
const startsLikeAnotherHost = (path: string) =>
  !path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\");

/** The WHATWG-normalised path of `value` against a dummy origin, or null when it leaves that origin. */
function normalise(value: string): URL | null {
  try {
    const url = new URL(value, BASE);
    return url.origin === BASE ? url : null;
  } catch {
    return null;
  }
}

/**
 * Only a same-origin path is a safe `next`/`redirectTo`; anything else becomes the fallback.
 *
 * Normalise first, then check what will actually be sent: the value is parsed as a URL against a dummy
 * origin (which resolves `.`/`..` segments, `%2e` dots, backslashes and strips tabs and newlines, as a browser
 * does), and the resulting path must stay on that origin and not start with `//` or `/\`. The same check is
 * repeated on the percent-decoded path (up to three layers), so `%2f`/`%5c`/`%2e` hidden behind an encoding
 * cannot become `//host` after one more decode. Raw control characters and backslashes are refused outright.
 * The answer is the normalised path, query and hash: the string that was checked.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  if (startsLikeAnotherHost(to) || hasControlOrBackslash(to)) return fallback;
  const url = normalise(to);
  if (!url || startsLikeAnotherHost(url.pathname)) return fallback;
  const result = `${url.pathname}${url.search}${url.hash}`;

  let path = url.pathname;
  for (let layer = 0; layer < 3; layer++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return fallback;
    }
    if (decoded === path) break;
    if (startsLikeAnotherHost(decoded) || hasControlOrBackslash(decoded)) return fallback;
    const again = normalise(decoded);
    if (!again || startsLikeAnotherHost(again.pathname)) return fallback;
    path = again.pathname;
  }

  // What we send must read the same when parsed again: same origin, same path.
  const check = normalise(result);
  if (!check || `${check.pathname}${check.search}${check.hash}` !== result) return fallback;
  return result;
}

/**
 * Where signing in lands (rule sign-in-keeps-flag, docs/rules.md): the safe `next`, and, when it names a bill
 * flag in its query (`flag=<id>`, as the alert emails' and the answer page's bills links do) and carries no
 * fragment, that flag's anchor `#flag-<id>` (a grid event opened on Grid Services, `open=<id>`: `#event-<id>`). A browser never sends a URL's fragment, so the `#flag-…` of the
 * email's link is lost through the sign-in, with or without JavaScript; the query keeps the flag, and a
 * redirect's Location may carry a fragment. Only digits go into the fragment, after `safeRedirect` has checked
 * the path and query: the answer stays a same-origin path.
 */
export function signInLanding(next: string | null | undefined, fallback = "/"): string {
  const safe = safeRedirect(next, fallback);
  if (safe.includes("#")) return safe;
  const url = new URL(safe, BASE);
  for (const { path, param, anchor } of LANDING_ANCHORS) {
    if (path && url.pathname !== path) continue;
    const id = url.searchParams.get(param);
    if (id && /^\d{1,12}$/.test(id)) return `${safe}#${anchor}${id}`;
  }
  return safe;
}

/**
 * The query parameters that name the row a link opens, and that row's anchor: a bill flag on any page
 * (`flag`), and a grid event opened on Grid Services (`open`, as the results email links it).
 */
const LANDING_ANCHORS: { path?: string; param: string; anchor: string }[] = [
  { param: "flag", anchor: "flag-" },
  { path: "/grid-services", param: "open", anchor: "event-" },
];

/** `/login?next=<path and query>` for the given request URL. */
export function loginRedirectUrl(requestUrl: string) {
  const url = new URL(requestUrl);
  const path = `${url.pathname.replace(/\.data$/, "")}${url.search}`.replace(/[?&]_data=[^&]*/, "");
  return path === "/" ? "/login" : `/login?next=${encodeURIComponent(path)}`;
}
