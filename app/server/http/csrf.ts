/**
 * True when a state-changing request comes from another site (CSRF protection on every mutation).
 * Modern browsers send `Sec-Fetch-Site`, which is authoritative when present (a page with
 * `Referrer-Policy: no-referrer` makes Chromium send `Origin: null` even for same-origin posts).
 * Browsers without it send `Origin`. A request with neither is not a browser's cross-site form post
 * (it could not carry the user's SameSite cookie), so it passes. An `Origin` naming another host is refused
 * even beside `Sec-Fetch-Site: same-origin`: no browser sends that pair, and Remix's own check would throw
 * on it (a reported 500 for anyone who sends two headers).
 */
export function isCrossSiteRequest(
  headers: { get(name: string): string | null },
  host: string | null,
): boolean {
  const site = headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = headers.get("origin");
  if (origin === "null") return !site;
  if (origin) {
    try {
      return new URL(origin).host !== host;
    } catch {
      return true;
    }
  }
  return false;
}
