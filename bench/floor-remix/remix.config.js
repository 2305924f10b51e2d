/**
 * The bench's bare Remix floor: a Remix v2 app built by the classic compiler, as the product is, with one route
 * and no entry files of its own (Remix's defaults), served by the express adapter with no middleware. Built by
 * `bench/floor-remix.ts` into `bench/floor-remix/build/` when the CPU bench starts.
 */
/** @type {import('@remix-run/dev').AppConfig} */
export default {
  appDirectory: "app",
  assetsBuildDirectory: "build/public",
  serverBuildPath: "build/index.js",
  serverModuleFormat: "esm",
  // The product's future flags: the floor pays for the same Remix (single fetch's turbo-stream hydration data).
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
