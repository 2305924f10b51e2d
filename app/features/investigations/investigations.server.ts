import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod/v4";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { settle } from "~/server/upstream/api-error";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { requireUser } from "~/server/upstream/guards.server";
import { now } from "~/server/clock.server";
import { queueCard } from "./investigations";

const investigationSchema = z.object({
  flagId: z.number(),
  type: z.string(),
  client: z.object({ id: z.number(), name: z.string(), clientType: z.string() }),
  building: z.object({ id: z.number(), name: z.string(), code: z.string(), timezone: z.string().nullish() }),
  account: z.object({ id: z.number(), number: z.string() }),
  bill: z.object({
    id: z.number(),
    statementDate: z.string(),
    totalCharges: z.number().nullable(),
    supplier: z.string().nullable(),
    previousSupplier: z.string().nullable(),
  }),
  atStake: z.object({ cents: z.number().nullable(), text: z.string() }),
  asked: z.object({ by: z.object({ name: z.string() }), answeredAt: z.string() }).nullable(),
  askedAt: z.string(),
});
// Built once, at module level (api-client.server.ts).
const queueAnswer = z.object({ items: z.array(investigationSchema) });

/** GET /investigations: every open investigation across clients, oldest request first (staff alone). */
export const listInvestigations = (api: ApiClient) => api.get("/investigations", { schema: queueAnswer });

/** Staff alone; anyone else signed in gets 404 (the page does not exist for them), signed out the login page. */
async function requireStaffMember(request: Request) {
  const user = await requireUser(request);
  if (!user.isStaff) throw data({ message: "Not found" }, { status: 404 });
  return user;
}

/** /investigations: the queue's cards, oldest first; an upstream failure keeps the page with its error state. */
export async function investigationsLoader({ request, context }: LoaderFunctionArgs) {
  await requireStaffMember(request);
  const api = await getApi(request, context);
  const answer = await settle(listInvestigations(api));
  const nowMs = now().getTime();
  const cards = answer.ok ? answer.data.items.map((i) => queueCard(i, nowMs)) : [];
  return withPrimaryStatus({ error: !answer.ok, cards }, answer);
}
