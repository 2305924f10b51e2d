import { getConfig } from "~/server/config.server";
import { redirect } from "@remix-run/node";
import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * Test hook, off unless ENABLE_TEST_HOOKS=true (set only by the test servers): throws an unexpected error so
 * the suites can check the global fallback (support address for everyone, stack trace for staff only).
 * Without the variable it behaves like any unknown path.
 */
export function loader(_: LoaderFunctionArgs) {
  if (!getConfig().ENABLE_TEST_HOOKS) throw redirect("/");
  throw new Error("Deliberate failure for the error-fallback test");
}

export default function TestError() {
  return null;
}
