/**
 * The server-only code route modules share, behind one import (issue 17: fewer script files per page).
 *
 * The classic compiler swaps every `*.server` module (and `@remix-run/node`) for an empty module in the
 * browser build, and esbuild puts each empty module that two or more routes import into a shared chunk of
 * its own: a ~100-byte file that every page of those routes then fetches. Imported from here, they are one
 * empty module, so at most one such file.
 *
 * Rule: a route module imports `@remix-run/node`'s runtime values, `app/server/*.server` and any feature's
 * `.server` module that two or more route modules use from `~/route-kit.server` (that exact specifier: the
 * browser build keys empty modules by the import string). A feature's `.server` module that only one route
 * uses may stay a direct import; its empty module lands inside that route's own file. Types may be imported
 * from anywhere (`import type` leaves nothing in the browser). `tests/ops/js-budget.test.ts` checks the build.
 */
export { data, redirect } from "@remix-run/node";

export * from "~/server/auth.server";
export * from "~/server/clock.server";
export * from "~/server/config.server";
export * from "~/server/forms.server";
export * from "~/server/guards.server";
export * from "~/server/idempotency.server";
export * from "~/server/login.server";
export * from "~/server/rate-limit.server";
export * from "~/server/session.server";
export * from "~/server/upstream.server";

export {
  connectUtility,
  credentialsRequiringAction,
  listAccounts,
  listUtilities,
  markConnectFlowOpened,
  markConnectSubmitted,
  submitConedAccounts,
} from "~/features/accounts/accounts.server";
export {
  logoutUpstream,
  parseLoginAction,
  parseResetPassword,
  resetPassword,
  validateResetToken,
} from "~/features/auth/auth.server";
export {
  loadAnswerPage,
  loadUnsubscribe,
  parseTokenForm,
  parseUnsubscribeForm,
  submitAnswer,
} from "~/features/email-answers/email-answers.server";
export { answerFlag, loadLocationBills, locationIdParam, todayUtc } from "~/features/bills/bills.server";
export {
  findLocation,
  getEnergyAdvisorBuildings,
  getOnboardingSteps,
  getUsageAvailable,
  getVendorAlert,
  listAllBuildings,
} from "~/features/locations/locations.server";
export { loadUsage } from "~/features/usage/usage.server";
