import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod/v4";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { settle } from "~/server/upstream/api-error";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { requireSmb } from "~/server/upstream/guards.server";
import { clientToday } from "~/features/locations/locations.server";
import { FLAG_OUTCOMES } from "../../../shared/flag-outcome";
import { buildLedger, type Finding, printTitle } from "./findings";

const person = z.object({ name: z.string() });
const findingSchema = z.object({
  kind: z.string(),
  flagId: z.number().nullable(),
  status: z.string(),
  foundOn: z.string(),
  building: z.object({ id: z.number(), name: z.string(), timezone: z.string().nullish() }),
  accountId: z.number(),
  accountNumber: z.string(),
  bill: z.object({ id: z.number(), statementDate: z.string() }).nullable(),
  atStake: z.object({ cents: z.number().nullable(), text: z.string() }).nullable(),
  answered: z
    .object({ answer: z.enum(["dismissed", "action_requested"]), by: person, answeredAt: z.string() })
    .nullable(),
  outcome: z
    .object({
      outcome: z.enum(FLAG_OUTCOMES),
      creditCents: z.number().nullable(),
      by: person,
      closedAt: z.string(),
    })
    .nullable(),
  missing: z.object({ lastStatementDate: z.string(), days: z.number(), text: z.string() }).nullable(),
});
// Built once, at module level (api-client.server.ts).
const findingsAnswer = z.object({
  today: z.string(),
  /** The locations covered: how many, and whether all of the client's. */
  scope: z.object({ locations: z.number(), all: z.boolean() }).nullish(),
  items: z.array(findingSchema),
});

/** Every finding of the client at the locations this person may see: one upstream call (docs/api-contract.md). */
export function listFindings(api: ApiClient, clientId: number) {
  return api.get(`/client/${clientId}/findings`, { schema: findingsAnswer });
}

/** The ledger for a request: the user's client's findings, the URL's period and sort (one round trip). */
export async function loadLedger({ request, context }: Pick<LoaderFunctionArgs, "request" | "context">) {
  const user = await requireSmb(request);
  const api = await getApi(request, context);
  // The periods end today in the client's home time zone (rule location-today), as its digests count them.
  const [answer, today] = await Promise.all([settle(listFindings(api, user.clientId)), clientToday(api)]);
  const findings: Finding[] = answer.ok ? answer.data.items : [];
  const scope = answer.ok ? (answer.data.scope ?? null) : null;
  const ledger = buildLedger(
    findings,
    new URL(request.url).searchParams,
    today.toISOString().slice(0, 10),
    scope,
  );
  return { answer, ledger, clientName: user.client?.name ?? null };
}

/** /findings: the ledger, its totals and headline; an upstream failure keeps the page with its error state. */
export async function findingsLoader(args: LoaderFunctionArgs) {
  const { answer, ledger, clientName } = await loadLedger(args);
  const search = new URL(args.request.url).search;
  return withPrimaryStatus(
    { error: !answer.ok, search, ...ledger, printTitle: printTitle(clientName, ledger.period) },
    answer,
  );
}
