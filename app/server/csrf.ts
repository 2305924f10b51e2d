/**
 * True when a state-changing request comes from another site (CSRF protection on every mutation).
 * Modern browsers send `Sec-Fetch-Site`, which is authoritative when present (a page with
 * `Referrer-Policy: no-referrer` makes Chromium send `Origin: null` even for same-origin posts).
 * Browsers without it send `Origin`. A request with neither is not a browser's cross-site form post
 * (it could not carry the user's SameSite cookie), so it passes.
 */
export function isCrossSiteRequest(
  headers: { get(name: string): string | null },
  host: string | null,
): boolean {
  const site = headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = headers.get("origin");
  if (origin) {
    if (origin === "null") return true;
    try {
      return new URL(origin).host !== host;
    } catch {
      return true;
    }
  }
  return false;
}
