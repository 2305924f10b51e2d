/**
 * True when a state-changing request comes from another site (spec: CSRF protection on every mutation).
 * Browsers send `Sec-Fetch-Site`; older ones send `Origin`. A request with neither is not a browser's
 * cross-site form post (it cannot carry the user's SameSite cookie), so it passes.
 */
export function isCrossSiteRequest(headers: { get(name: string): string | null }, host: string | null): boolean {
  const site = headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
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
