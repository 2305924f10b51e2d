/**
 * What search engines may see: the public pages (sign-in, privacy policy, the free bill health check, the
 * migration notice) and nothing of the signed-in application. Token pages (`/login/link`, `/reset-password`,
 * the bill-dismissal pages reached from an email) are public but personal, so they are kept out too.
 */
export const CRAWLABLE_PATHS = ["/login", "/privacy-policy", "/free-bill-health-check", "/mycor"] as const;

/** Public paths a crawler must not index although a path above is a prefix of them. */
const PERSONAL_UNDER_CRAWLABLE = ["/login/"] as const;

/**
 * The robots.txt body (RFC 9309): the most specific (longest) matching rule wins, so `Disallow: /` keeps the
 * application out while the `Allow` lines open the public pages.
 */
export function robotsTxt(): string {
  return [
    "User-agent: *",
    ...CRAWLABLE_PATHS.map((p) => `Allow: ${p}`),
    ...PERSONAL_UNDER_CRAWLABLE.map((p) => `Disallow: ${p}`),
    "Disallow: /",
    "",
  ].join("\n");
}

/** The meta description of each public page (search results and link previews). */
export const DESCRIPTIONS = {
  login: "Sign in to EnergyOps to see your locations' energy use, bills, thermostats and grid events.",
  privacyPolicy: "How EnergyOps collects, uses and protects your information.",
  freeBillHealthCheck: "Submit your utility accounts for a free bill health check.",
  mycor: "Your organization's account has moved to our new commercial platform.",
} as const;

/** The meta descriptor for a description, for a route's `meta` function. */
export const description = (content: string) => ({ name: "description", content });
