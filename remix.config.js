/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverDependenciesToBundle: [],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Off: every route is in the manifest from the first page (34 routes, 2 KB gzip), no /__manifest requests on
    // the way, and the dashboard's document cost 7 % less server CPU and 2.8 KB less HTML (ADR 0021, 2026-11-28).
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: true,
  },
};
