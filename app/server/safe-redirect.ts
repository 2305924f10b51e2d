function hasControlOrBackslash(value: string) {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x5c) return true;
  }
  return false;
}

/**
 * Only a same-origin path starting with exactly one `/` is a safe `next`; anything else becomes the fallback.
 * Rejects `//x`, `/\x`, absolute URLs, `javascript:`, control characters and their percent-encoded forms.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  let decoded = to;
  for (let i = 0; i < 3; i++) {
    try {
      const next = decodeURIComponent(decoded);
      if (next === decoded) break;
      decoded = next;
    } catch {
      return fallback;
    }
  }
  for (const candidate of [to, decoded]) {
    if (!candidate.startsWith("/")) return fallback;
    if (candidate.startsWith("//") || candidate.startsWith("/\\")) return fallback;
    if (hasControlOrBackslash(candidate)) return fallback;
  }
  try {
    const base = "http://safe.invalid";
    const url = new URL(to, base);
    if (url.origin !== base) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** `/login?next=<path and query>` for the given request URL. */
export function loginRedirectUrl(requestUrl: string) {
  const url = new URL(requestUrl);
  const path = `${url.pathname.replace(/\.data$/, "")}${url.search}`.replace(/[?&]_data=[^&]*/, "");
  return path === "/" ? "/login" : `/login?next=${encodeURIComponent(path)}`;
}
