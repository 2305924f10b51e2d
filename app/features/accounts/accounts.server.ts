import { z } from "zod/v4";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { billMonitoringUpdate } from "~/features/onboarding/onboarding";
import {
  getOnboardingSteps,
  sendOnboardingTaskStep,
  setOnboardingStepStatus,
} from "~/features/onboarding/onboarding.server";
import { settle } from "~/server/upstream/api-error";
import type { SessionUser } from "~/server/upstream/session.server";
import { shouldSendTaskStep, accountsPage, reconnectHref } from "./accounts";
import { requireClientUser } from "~/server/upstream/guards.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { pageParam } from "~/ui/pager";
import { now } from "~/server/clock.server";
import { zonedDate } from "~/lib/zoned";
import { MISSING_BILL_LABEL, missingBill } from "../../../shared/missing-bill";

const utilitySchema = z.object({
  id: z.number(),
  name: z.string(),
  arcadiaProviderId: z.string(),
  requiresEbill: z.boolean().default(false),
  isConed: z.boolean().default(false),
  isJcpl: z.boolean().default(false),
  mfaExempt: z.boolean().default(false),
});

const accountSchema = z.object({
  id: z.number(),
  number: z.string(),
  utilityDisplayName: z.string(),
  utilityArcadiaProviderId: z.string().nullish(),
  arcadiaAccountStatus: z.string(),
  arcadiaAccountStatusDetail: z.string().nullable(),
  /** The latest statement's date, null before the first (rule missing-bill). */
  lastStatementDate: z.string().nullish(),
});
export type UtilityAccount = z.infer<typeof accountSchema>;

export type AccountRow = ReturnType<typeof accountRow>;

/**
 * An account row of the page: its missing bill's words when its next statement is overdue (rule missing-bill),
 * counted from `today`, its location's date (`YYYY-MM-DD`, rule location-today).
 */
const accountRow = (a: UtilityAccount, today: string) => {
  const missing = missingBill(
    { lastStatementDate: a.lastStatementDate, statusDetail: a.arcadiaAccountStatusDetail },
    today,
  );
  // Only a missing bill adds to the row's data (the 300-location page stays within its HTML budget).
  const { lastStatementDate: _read, ...row } = a;
  return { ...row, missingBill: missing ? { label: MISSING_BILL_LABEL, text: missing.text } : null };
};

const buildingWithAccounts = z.object({
  id: z.number(),
  name: z.string(),
  nickname: z.string().nullable(),
  /** Its time zone: an account's bill age counts the location's days (rule location-today). */
  timezone: z.string().nullish(),
  accounts: z.array(accountSchema),
});

const accountsSchema = z.object({
  items: z.array(buildingWithAccounts),
  unassignedAccounts: z.array(accountSchema).default([]),
});

const credentialSchema = z.object({
  arcadiaCredentialId: z.number(),
  username: z.string(),
  utilityName: z.string(),
  url: z.string(),
});
const credentialsSchema = z.object({
  reconnectUrls: z.array(credentialSchema),
  mfaRefreshUrls: z.array(credentialSchema),
});
export type CredentialRequiringAction = z.infer<typeof credentialSchema>;

// Answer schemas are built once (see settings.server.ts).
const utilitiesAnswer = z.object({ items: z.array(utilitySchema) });
const conedAnswer = z.object({ submitted: z.array(z.string()), alreadySubmitted: z.array(z.string()) });

export async function listUtilities(api: ApiClient) {
  const { items } = await api.get("/arcadia-utilities", { schema: utilitiesAnswer });
  return items;
}

export function listAccounts(
  api: ApiClient,
  query: { utility?: string; arcadiaCredentialsExist?: boolean } = {},
) {
  return api.get("/accounts", {
    query: {
      utility: query.utility,
      arcadiaCredentialsExist:
        query.arcadiaCredentialsExist === undefined ? undefined : String(query.arcadiaCredentialsExist),
    },
    schema: accountsSchema,
  });
}

export function credentialsRequiringAction(api: ApiClient, clientId: number) {
  return api.get(`/${clientId}/credentials_requiring_action`, { schema: credentialsSchema });
}

export function submitConedAccounts(api: ApiClient, correlationId: string, numbers: string[]) {
  return api.post("/create_arcadia_coned_credentials", {
    body: { correlationId, accountNumbers: numbers.map((accountNumber) => ({ accountNumber })) },
    schema: conedAnswer,
  });
}

export type ConnectInput = {
  arcadiaProviderId: string;
  username: string;
  password: string;
  buildingId?: number | null;
  credentialId?: number | null;
  correlationId?: string | null;
};

const connectAnswer = z.object({ correlationId: z.string(), accounts: z.array(accountSchema).default([]) });

/** The built-in widget's connect step: POST /utility-connections. */
export function connectUtility(api: ApiClient, input: ConnectInput) {
  return api.post("/utility-connections", {
    body: input,
    schema: connectAnswer,
  });
}

const connectTokenAnswer = z.object({
  connectToken: z.string().min(1),
  expiresAt: z.string(),
  env: z.enum(["sandbox", "production"]),
});
const connectUrlAnswer = z.object({ connectUrl: z.string().url(), expiresAt: z.string() });

/** Who a Connect session is for: the utility, and the stored credential in update mode (Reconnect, MFA). */
export type ConnectSubject = {
  arcadiaProviderId: string;
  credentialId?: number | null;
  /** The location the new accounts go to: the api keeps it with the Connect session. */
  buildingId?: number | null;
};

/** A Connect token for the JavaScript path, minted by the api with the provider keys it alone holds. */
export function createConnectToken(api: ApiClient, subject: ConnectSubject) {
  return api.post("/arcadia/connect-token", { body: subject, schema: connectTokenAnswer });
}

/** A Connect URL (the provider's hosted page) for the no-JavaScript path, coming back to `redirectUrl`. */
export function createConnectUrl(api: ApiClient, subject: ConnectSubject, redirectUrl: string) {
  return api.post("/arcadia/connect-url", { body: { ...subject, redirectUrl }, schema: connectUrlAnswer });
}

const arcadiaCredentialAnswer = z.object({ arcadiaCredentialId: z.number() });

/** Connect's onCredentialsSubmitted: the api records the provider's credential (its accounts show Processing). */
export function registerArcadiaCredential(
  api: ApiClient,
  input: {
    arcadiaProviderId: string;
    utilityCredentialId: string;
    buildingId?: number | null;
    /** How Connect ended (its onClose status). */
    status?: "verified" | "pending" | "rejected" | "timed_out";
  },
) {
  return api.post("/arcadia/credentials", {
    body: input,
    schema: arcadiaCredentialAnswer,
  });
}

/**
 * Opening the connect flow by its button (a POST): bill_monitoring goes in progress and task step 1 is sent, for a
 * client's own users only (never staff: rule connect-open-marks-progress). Failures here never block the flow.
 */
export async function markConnectFlowOpened(api: ApiClient, user: SessionUser) {
  if (!user.clientId || user.isStaff) return;
  const clientId = user.clientId;
  await Promise.all([
    settle(
      getOnboardingSteps(api, clientId).then((steps) => {
        const update = billMonitoringUpdate(steps);
        return update ? setOnboardingStepStatus(api, clientId, update.id, update.status) : null;
      }),
    ),
    shouldSendTaskStep(user, 1) ? settle(sendOnboardingTaskStep(api, clientId, 1)) : null,
  ]);
}

/**
 * Opening the connect flow by a GET (its address, a RECONNECT or REFRESH MFA link, the flow's own first screen):
 * when `recordsFlowOpening` allows it, bill_monitoring moves from not_started to in_progress, with task step 1
 * (page visited) sent once with it. Already in progress or complete, it only reads: a GET writes at most once per
 * client, and never moves a step back. Failures never block the flow (rule connect-open-marks-progress).
 */
export async function markFlowOpenedOnVisit(api: ApiClient, user: SessionUser) {
  const clientId = user.clientId;
  if (!clientId || user.isStaff) return;
  const steps = await settle(getOnboardingSteps(api, clientId));
  const update = steps.ok ? billMonitoringUpdate(steps.data) : null;
  if (!update) return;
  await Promise.all([
    settle(setOnboardingStepStatus(api, clientId, update.id, update.status)),
    shouldSendTaskStep(user, 1) ? settle(sendOnboardingTaskStep(api, clientId, 1)) : null,
  ]);
}

/**
 * After a submission: the opening is recorded too (a browser without JavaScript could not post it when the
 * flow opened; the step update is idempotent), then task step 2 for non-staff users.
 */
export async function markConnectSubmitted(api: ApiClient, user: SessionUser) {
  await markConnectFlowOpened(api, user);
  if (user.clientId && shouldSendTaskStep(user, 2))
    await settle(sendOnboardingTaskStep(api, user.clientId, 2));
}

/** Where an account not yet assigned may go (rule account-choose-location): the accounts page passes it in. */
type LocationChoices = (api: ApiClient, user: SessionUser) => Promise<{ id: number; label: string }[]>;

export async function accountsLoader(
  { request, context }: LoaderFunctionArgs,
  locationChoices: LocationChoices = async () => [],
) {
  const user = await requireClientUser(request);
  const api = await getApi(request, context);
  const [accounts, credentials] = await Promise.all([
    settle(listAccounts(api)),
    settle(credentialsRequiringAction(api, user.clientId)),
  ]);
  // Where an unassigned account may go (rule account-choose-location): asked only when there is one.
  const unassignedCount = accounts.ok ? accounts.data.unassignedAccounts.length : 0;
  const locations = unassignedCount > 0 ? await locationChoices(api, user) : [];
  const url = new URL(request.url);
  const origin = url.origin;
  const link = (c: CredentialRequiringAction) => ({
    id: c.arcadiaCredentialId,
    username: c.username,
    utilityName: c.utilityName,
    href: reconnectHref(c.url, origin),
  });
  // 75 buildings a page; the empty state and the "still processing" note count every account (rule accounts-page-paged).
  // Each location's own date (rule location-today); accounts not yet at a location, the first location's.
  const nowMs = now().getTime();
  const home = accounts.ok ? [...accounts.data.items].sort((x, y) => x.id - y.id)[0] : undefined;
  const dateIn = (timeZone: string | null | undefined) =>
    zonedDate(nowMs, timeZone).toISOString().slice(0, 10);
  const paged = accountsPage(
    accounts.ok ? accounts.data.items : [],
    accounts.ok ? accounts.data.unassignedAccounts : [],
    pageParam(url.searchParams),
  );
  return withPrimaryStatus(
    {
      error: !accounts.ok,
      buildings: paged.buildings.map((b) => ({
        id: b.id,
        // A nickname equal to the name (demo mode makes both "Demo Location {id}") is not repeated.
        name: b.nickname && b.nickname !== b.name ? `${b.name} (${b.nickname})` : b.name,
        accounts: b.accounts.map((a) => accountRow(a, dateIn(b.timezone))),
      })),
      unassigned: paged.unassigned.map((a) => accountRow(a, dateIn(home?.timezone))),
      locations,
      page: paged.page,
      pages: paged.pages,
      buildingCount: paged.buildingCount,
      accountCount: paged.accountCount,
      pending: paged.pending,
      search: url.search,
      reconnect: credentials.ok ? credentials.data.reconnectUrls.map(link) : [],
      mfaRefresh: credentials.ok ? credentials.data.mfaRefreshUrls.map(link) : [],
    },
    accounts,
  );
}
