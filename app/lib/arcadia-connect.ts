/**
 * The utility-data provider's Connect (Arcadia), what the web tier and its server both need to know.
 *
 * `@arcadia-eng/connect-react` loads Connect from this one hard-coded URL (ADR 0024); a deployment against
 * Arcadia (sandbox or production: the Connect token decides) uses it as is. The demo and the tests point
 * ARCADIA_CONNECT_SCRIPT_URL at the simulator's copy on the api's port instead.
 */
export const ARCADIA_PACKAGE_SCRIPT_URL = "https://connect-main.prod.arcadia.com/dist/v5.js";

/**
 * The pages that open Connect (the signed-in flow, the free bill health check): only they get the provider's
 * origins in their content security policy.
 */
export const CONNECT_PAGE_PATHS: readonly string[] = ["/authorize-arcadia", "/free-bill-health-check"];

/**
 * The extra sources a page's policy allows (rule connect-csp-pages): the script's origin (script-src,
 * connect-src, form-action: the no-JavaScript path posts, then is redirected to the hosted page) and the frame
 * origin (frame-src) on the pages that open Connect; nothing anywhere else.
 */
export function connectCspSources(
  path: string,
  provider: { scriptUrl: string; frameOrigin?: string } | null,
): { script: string[]; frame: string[] } {
  if (!provider || !CONNECT_PAGE_PATHS.includes(path)) return { script: [], frame: [] };
  const scriptOrigin = new URL(provider.scriptUrl).origin;
  const frameOrigin = provider.frameOrigin ? new URL(provider.frameOrigin).origin : scriptOrigin;
  return { script: [scriptOrigin], frame: [...new Set([scriptOrigin, frameOrigin])] };
}
