/**
 * The pieces every page loads, behind one import (issue 17: fewer script files per page).
 *
 * The browser entry and the root route use these modules, so every hydrated page downloads them anyway. esbuild
 * splits code by the set of route modules that reach it: imported here and there one by one, each became a shared
 * chunk of its own (a few hundred bytes, each paying its response headers and, on a slow link, a round trip).
 * Imported through this module by everyone, they reach the same set and land in one chunk. Nothing here is extra
 * for any page: the root loads all of it.
 *
 * package.json lists this file under `sideEffects` (every other module stays side-effect free): esbuild then keeps
 * this module in the graph instead of resolving each name straight to its source, so a route that imports one
 * name from here reaches all the modules below, as the root does.
 *
 * Rule: outside the modules listed here, import them from `~/ui/page-shell` (`tests/ops/js-budget.test.ts` checks
 * the build). Add a module only if the root or the browser entry uses it.
 */
export * from "./brand";
export * from "./client-errors";
export * from "./error-boundary";
export * from "./escape-closes-menus";
export * from "./nonce";
export * from "./static-page";
export * from "./toasts";
export * from "./use-hydrated";
