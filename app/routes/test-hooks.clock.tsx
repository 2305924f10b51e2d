import { redirect } from "@remix-run/node";
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getConfig } from "~/server/config.server";
import { moveClock, now } from "~/server/clock.server";
import { parseForm } from "~/server/forms.server";

/** `at`: an ISO instant; empty or absent moves the clock back to its `CLOCK_START` one. */
const clockSchema = z.object({ at: z.string().datetime({ offset: true }).optional() });

export function loader() {
  throw redirect("/");
}

/**
 * Test hook, off unless ENABLE_TEST_HOOKS=true (set only by the test servers): POST moves the web's clock (the
 * e2e suite runs pages at the US month-end evening hours, rule location-today; the api's moves with its own
 * POST /dev/clock). Without the variable it behaves like any unknown path.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (!getConfig().ENABLE_TEST_HOOKS) throw redirect("/");
  const submission = parseForm(await request.formData(), { schema: clockSchema });
  if (submission.status !== "success")
    return Response.json({ error: "at: an ISO date-time" }, { status: 400 });
  moveClock(submission.value.at ?? null);
  // A resource route answers a Response of its own (Remix warns of a bare object from one).
  return Response.json({ now: now().toISOString() });
}
