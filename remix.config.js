import { ASSETS_DIR, ASSETS_URL, SERVER_BUILD } from "./shared/build-output.mjs";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Where the build goes: shared/build-output.mjs knows it for every reader of the build.
  assetsBuildDirectory: ASSETS_DIR,
  publicPath: ASSETS_URL,
  serverBuildPath: SERVER_BUILD,
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
