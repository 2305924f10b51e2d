/**
 * The pieces the signed-in shell (`routes/_app`) uses, behind one import (issue 17: fewer script files per
 * page). Every signed-in page loads the shell, so it downloads all of these anyway; imported one by one by the
 * shell's child routes and their components, each became a shared chunk of its own (60 bytes to 8 KB). Imported
 * through this module they reach the same routes and land in one chunk, with nothing extra for any signed-in
 * page. Like `~/ui/page-shell`, package.json lists this file under `sideEffects` so that esbuild keeps it in the
 * graph and a route importing one name from here reaches every module below.
 *
 * Rule: route modules and React components import these modules from `~/features/shell/app-shell` (server
 * modules and pure rules may import them directly: the browser never reaches them through those). Add a module
 * only if `routes/_app` uses it and no public page does: a public page that reached this module would download
 * all of it. `tests/ops/js-budget.test.ts` counts the files.
 */
export * from "~/features/accounts/components/account-status-badge";
export * from "~/features/accounts/components/connect-flow";
export * from "~/features/accounts/components/connect-link";
export * from "~/features/locations/locations";
export * from "~/lib/query";
export * from "~/ui/pill";
export * from "~/ui/tooltip";
