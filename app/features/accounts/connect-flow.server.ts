import { randomUUID } from "node:crypto";
import { redirect, data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { listAllBuildings } from "~/features/locations/locations.server";
import { locationLabel, sortLocations } from "~/features/locations/locations";
import { locationName } from "../../../shared/location-name";
import { settle, isApiError } from "~/server/upstream/api-error";
import { failureStatus, getApi } from "~/server/upstream/upstream.server";
import type { ApiClient } from "~/server/upstream/api-client.server";
import {
  commitSession,
  getSession,
  type SessionUser,
  redirectWithToast,
  toastHeaders,
} from "~/server/upstream/session.server";
import { getConnectWidgetConfig } from "~/features/accounts/utility-connect.server";
import {
  applyAccountListOp,
  conedStepErrors,
  connectUrl,
  addPendingAccount,
  readAccountList,
  parseAccountListOp,
  resolveConnectStep,
  type ConnectStep,
  CONNECT_MESSAGES,
  credentialsSchema,
  recordsFlowOpening,
} from "./accounts";
import {
  listAccounts,
  listUtilities,
  connectUtility,
  createConnectToken,
  createConnectUrl,
  registerArcadiaCredential,
  markConnectFlowOpened,
  markConnectSubmitted,
  markFlowOpenedOnVisit,
  submitConedAccounts,
} from "./accounts.server";
import { parseId } from "~/lib/ids";
import { requireClientUser } from "~/server/upstream/guards.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { getConfig, supportEmail } from "~/server/config.server";
import type { ConnectActionData } from "./components/connect-flow";
import { connectActionSchema } from "./connect-action.server";
import { CONNECT_INTENTS, type ConnectSession } from "./utility-connect";
import { safeRedirect } from "~/server/safe-redirect";

export type ConnectReceipt = {
  kind: "provider" | "coned";
  utility: string;
  count: number;
  already: number;
  /** The hosted page's way back (rule connect-url-session): the id its return address carries, taken once. */
  returnId?: string;
};
export const RECEIPT_KEY = "state:connect" as const;

export async function readReceipt(request: Request) {
  const session = await getSession(request);
  return (session.get(RECEIPT_KEY) as ConnectReceipt | undefined) ?? null;
}

/** Stores the success receipt (tiny) in the cookie session and redirects to the success step. */
export async function redirectToSuccess(request: Request, receipt: ConnectReceipt, utility: string) {
  const session = await getSession(request);
  session.set(RECEIPT_KEY, receipt);
  return redirect(connectUrl({ step: "success", utility }), {
    headers: { "Set-Cookie": await commitSession(session) },
  });
}

/**
 * Everything the connect flow renders for a URL. The step state lives in the query string (GET forms and
 * links); list edits of the ConEd step redirect to a clean URL so a reload never repeats them.
 */
export async function loadConnectFlow(
  request: Request,
  api: ApiClient,
  user: SessionUser,
  /** The shell's dialog: another URL than the request's (after an action), and a receipt just issued. */
  overrides: { url?: string; receipt?: ConnectReceipt } = {},
) {
  const url = new URL(overrides.url ?? request.url, request.url);
  const p = url.searchParams;
  // Inside the shell's dialog (fetcher loads) nothing redirects: the next state is answered directly.
  const embed = p.get("embed") === "1";
  const requested = p.get("step");
  const providerId = p.get("utility") ?? "";
  const q = (p.get("q") ?? "").slice(0, 100);
  const building = parseId(p.get("building"));
  const credential = parseId(p.get("credential"));
  let accounts = readAccountList(p.getAll("account"));
  const confirmed = p.get("confirmed") === "on";
  // The provider's hosted page coming back (rule connect-url-session): its return id, matched once.
  const returnId = (p.get("return") ?? "").slice(0, 100);

  const opening = !requested && !providerId && !q;
  // Opening the flow is recorded by the loader (authorizeArcadiaLoader), not here: the dialog's action reuses this.
  const [utilities, receipt] = await Promise.all([
    settle(listUtilities(api)),
    overrides.receipt ?? readReceipt(request),
  ]);
  if (!utilities.ok) return { kind: "error" as const, status: failureStatus(utilities.error) };
  const utility = utilities.data.find((u) => u.arcadiaProviderId === providerId) ?? null;
  const returned = returnAt(returnId, receipt);
  let step: ConnectStep = resolveConnectStep(requested, {
    utility,
    accounts,
    confirmed,
    hasReceipt: Boolean(receipt) && returned !== "used",
  });
  // The hosted page's Cancel (its way back says `connect_status=cancelled`): nothing was submitted, so not
  // Success (rule connect-close-outcome); the credentials step again, saying so.
  const cancelled = returned === "taken" && p.get("connect_status") === "cancelled";
  // A way back already taken (a reload, another browser with the link): said, and Connect offered again.
  if ((returned === "used" || cancelled) && utility && !utility.isConed) step = "connect_arcadia";

  const errors: { accounts?: string; confirmed?: string; newAccount?: string; utility?: string } = {};
  let newAccount = "";
  if (requested && requested !== "select_utility" && providerId === "" && step === "select_utility")
    errors.utility = "Please select a utility";

  if (step === "enter_coned_credentials" && utility) {
    const op = p.get("op");
    const listOp = parseAccountListOp(op, p.get("newAccount"));
    if (listOp.op !== "none") {
      const result = applyAccountListOp(accounts, listOp);
      if (result.error) {
        errors.newAccount = result.error;
        newAccount = p.get("newAccount") ?? "";
      } else if (!embed) {
        throw redirect(
          connectUrl({ step, utility: providerId, accounts: result.accounts, confirmed, credential }),
        );
      }
      accounts = result.accounts;
    } else if (op === "continue") {
      const added = addPendingAccount(accounts, p.get("newAccount"));
      accounts = added.accounts;
      if (added.error) {
        errors.newAccount = added.error;
        newAccount = added.pending;
      }
      const stepErrors = conedStepErrors(accounts, confirmed);
      Object.assign(errors, stepErrors);
      if (!errors.newAccount && !stepErrors.accounts && !stepErrors.confirmed) {
        if (embed) step = "connect_arcadia";
        else
          throw redirect(
            connectUrl({
              step: "connect_arcadia",
              utility: providerId,
              accounts,
              confirmed: true,
              credential,
            }),
          );
      }
    }
  }

  let existing: { building: string; number: string; status: string; detail: string | null }[] = [];
  let buildings: { id: number; label: string }[] = [];
  if (step === "review_accounts" && utility) {
    const [acc, bl] = await Promise.all([
      settle(listAccounts(api, { utility: utility.arcadiaProviderId })),
      settle(listAllBuildings(api)),
    ]);
    if (acc.ok) {
      existing = acc.data.items.flatMap((b) =>
        b.accounts.map((a) => ({
          building: locationName(b),
          number: a.number,
          status: a.arcadiaAccountStatus,
          detail: a.arcadiaAccountStatusDetail,
        })),
      );
      existing.push(
        ...acc.data.unassignedAccounts.map((a) => ({
          building: "",
          number: a.number,
          status: a.arcadiaAccountStatus,
          detail: a.arcadiaAccountStatusDetail,
        })),
      );
    }
    if (bl.ok)
      buildings = sortLocations(bl.data, user.isStaff).map((b) => ({
        id: b.id,
        label: locationLabel(b, user.isStaff),
      }));
  }

  const widget = getConnectWidgetConfig(user.isDemoMode);
  // The provider's Connect on this step (not in the dialog, whose page's policy does not allow it): a token
  // minted by the api for the client, or for the stored credential in update mode. Only this page's HTML has it.
  let connect: ConnectSession | null = null;
  if (step === "connect_arcadia" && widget.kind === "provider" && !embed && utility && !utility.isConed) {
    const minted = await settle(
      createConnectToken(api, {
        arcadiaProviderId: utility.arcadiaProviderId,
        credentialId: credential,
        buildingId: building,
      }),
    );
    connect = minted.ok ? { token: minted.data.connectToken, env: minted.data.env } : { failed: true };
  }

  return {
    kind: "flow" as const,
    embed,
    opening,
    step,
    utilities: utilities.data,
    utility,
    q,
    accounts,
    confirmed,
    building,
    credential,
    errors,
    newAccount,
    existing,
    buildings,
    // A fresh id per rendered connect step: a retried POST of the same form reuses it (idempotent upstream).
    correlationId: randomUUID(),
    widget,
    connect,
    receipt: step === "success" ? receipt : null,
    notice:
      returned === "used"
        ? CONNECT_MESSAGES.connectLinkUsed
        : cancelled
          ? CONNECT_MESSAGES.providerCancelled
          : null,
    /** The loader takes the way back out of the session's receipt: it is taken once. */
    takesReturn: returned === "taken",
  };
}

/** Whether a return from the hosted page is the one this session awaits ("taken"), or one already used. */
function returnAt(returnId: string, receipt: ConnectReceipt | null): "taken" | "used" | null {
  if (!returnId) return null;
  return receipt?.returnId === returnId ? "taken" : "used";
}

export async function authorizeArcadiaLoader({ request, context }: LoaderFunctionArgs) {
  const user = await requireClientUser(request);
  const api = await getApi(request, context);
  // Opening the flow, however it is opened, marks Bill Monitoring in progress (rule connect-open-marks-progress).
  const [flow] = await Promise.all([
    loadConnectFlow(request, api, user),
    recordsFlowOpening(request, user) ? markFlowOpenedOnVisit(api, user) : null,
  ]);
  if (flow.kind === "flow" && flow.takesReturn) {
    // Like a flash message: the session cookie forgets the way back (the receipt stays for Success), nothing
    // upstream changes.
    const session = await getSession(request);
    const { returnId: _taken, ...receipt } = (session.get(RECEIPT_KEY) as ConnectReceipt | undefined) ?? {};
    if (_taken) session.set(RECEIPT_KEY, receipt as ConnectReceipt);
    return data(flow, { headers: { "Set-Cookie": await commitSession(session) } });
  }
  return data(flow, { status: flow.kind === "error" ? flow.status : 200 });
}

export async function authorizeArcadiaAction({ request, context }: ActionFunctionArgs) {
  const user = await requireClientUser(request);
  const form = await request.formData();
  // One schema: an unknown intent or a step without its utility fails here (a 400 and the reply).
  const parsed = parseForm(form, { schema: connectActionSchema });
  if (parsed.status !== "success") return invalidSubmission(parsed);
  const value = parsed.value;
  const api = await getApi(request, context);
  if (value.intent === "opened") {
    // The Connect Utility Accounts button (with and without JavaScript): bill_monitoring in progress and task
    // step 1, then the flow (this page, or the shell's dialog), whose GET then finds it marked and only reads.
    await markConnectFlowOpened(api, user);
    return redirect(safeRedirect(value.next, connectUrl({ building: value.building })));
  }
  const { correlationId, embed } = value;
  let utilities;
  try {
    utilities = await listUtilities(api);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return data<ConnectActionData>({ formError: CONNECT_MESSAGES.utilitiesFailed }, { status: 502 });
  }
  const utility = utilities.find((u) => u.arcadiaProviderId === value.utility);
  if (!utility) return invalidSubmission(parsed, {}, { fieldErrors: { utility: ["Unknown utility"] } });
  // In the shell's dialog (a fetcher), answer the next step's data instead of redirecting.
  const success = async (receipt: ConnectReceipt) => {
    if (!embed) return redirectToSuccess(request, receipt, utility.arcadiaProviderId);
    const session = await getSession(request);
    session.set(RECEIPT_KEY, receipt);
    const flow = await loadConnectFlow(request, api, user, {
      url: `${connectUrl({ step: "success", utility: utility.arcadiaProviderId })}&embed=1`,
      receipt,
    });
    return data(flow, { headers: { "Set-Cookie": await commitSession(session) } });
  };

  if (value.intent === CONNECT_INTENTS.builtin) {
    const submission = parseForm(form, { schema: credentialsSchema(utility.mfaExempt) });
    if (submission.status !== "success") {
      return data<ConnectActionData>(
        { lastResult: submission.reply({ hideFields: ["password"] }) },
        { status: 400 },
      );
    }
    try {
      const result = await connectUtility(api, {
        arcadiaProviderId: utility.arcadiaProviderId,
        username: submission.value.username,
        password: submission.value.password,
        buildingId: value.building,
        credentialId: value.credential,
        correlationId,
      });
      await markConnectSubmitted(api, user);
      return success({ kind: "provider", utility: utility.name, count: result.accounts.length, already: 0 });
    } catch (error) {
      if (!isApiError(error)) throw error;
      return data<ConnectActionData>(
        { lastResult: submission.reply({ formErrors: [error.message], hideFields: ["password"] }) },
        { status: 400 },
      );
    }
  }

  if (value.intent === CONNECT_INTENTS.provider) {
    // Connect's onCredentialsSubmitted: the provider holds the credential; the api records it (Processing)
    // and learns the verdict by webhook. Then the onboarding task, and "Connection(s) Initiated".
    try {
      await registerArcadiaCredential(api, {
        arcadiaProviderId: utility.arcadiaProviderId,
        utilityCredentialId: value.utilityCredentialId,
        buildingId: value.building,
        status: value.status,
      });
    } catch (error) {
      if (!isApiError(error)) throw error;
      return data<ConnectActionData>({ formError: CONNECT_MESSAGES.providerFailed }, { status: 502 });
    }
    await markConnectSubmitted(api, user);
    // Success only on `verified` or `pending`; a login Connect rejected or timed out stays on the step with
    // its message and Reconnect (rule connect-close-outcome). The credential is recorded either way.
    if (value.status === "rejected" || value.status === "timed_out")
      return data<ConnectActionData>({
        formError:
          value.status === "rejected" ? CONNECT_MESSAGES.providerRejected : CONNECT_MESSAGES.providerTimedOut,
        ended: value.status,
      });
    return success({ kind: "provider", utility: utility.name, count: 0, already: 0 });
  }

  if (value.intent === CONNECT_INTENTS.providerUrl) {
    // The MFA warning before Connect opens (rule mfa-checkbox): refused without it, on the same step.
    if (!utility.mfaExempt && !value.mfaAcknowledged)
      return data<ConnectActionData>({ mfaError: CONNECT_MESSAGES.required }, { status: 400 });
    // Without JavaScript: the provider's hosted page (a Connect URL, 5 days), which sends the person back to
    // the success step; the receipt is stored now, as the provider's page cannot hand one back.
    const origin = getConfig().PUBLIC_URL ?? new URL(request.url).origin;
    // The way back carries an id this browser's session alone holds, taken once (rule connect-url-session).
    const returnId = randomUUID();
    const back = `${origin}${connectUrl({
      step: "success",
      utility: utility.arcadiaProviderId,
      building: value.building,
      credential: value.credential,
    })}&return=${returnId}`;
    let hosted;
    try {
      hosted = await createConnectUrl(
        api,
        {
          arcadiaProviderId: utility.arcadiaProviderId,
          credentialId: value.credential,
          buildingId: value.building,
        },
        back,
      );
    } catch (error) {
      if (!isApiError(error)) throw error;
      // A return address the api refuses is the server's set-up, not an outage: say which (a 400, not a 502).
      if (error.details.code === "unknown_redirect_url")
        return data<ConnectActionData>(
          { formError: CONNECT_MESSAGES.returnAddressRefused(new URL(origin).host) },
          { status: 400 },
        );
      return data<ConnectActionData>({ formError: CONNECT_MESSAGES.providerFailed }, { status: 502 });
    }
    await markConnectSubmitted(api, user);
    const session = await getSession(request);
    session.set(RECEIPT_KEY, {
      kind: "provider",
      utility: utility.name,
      count: 0,
      already: 0,
      returnId,
    } satisfies ConnectReceipt);
    return redirect(hosted.connectUrl, { headers: { "Set-Cookie": await commitSession(session) } });
  }

  const accounts = readAccountList(form.getAll("account"));
  const errors = conedStepErrors(accounts, true);
  if (errors.accounts) return data<ConnectActionData>({ formError: errors.accounts }, { status: 400 });
  try {
    const result = await submitConedAccounts(api, correlationId, accounts);
    if (result.submitted.length === 0) {
      const back = connectUrl({
        step: "enter_coned_credentials",
        utility: utility.arcadiaProviderId,
        accounts,
        confirmed: true,
      });
      const toast = {
        kind: "warning" as const,
        message: CONNECT_MESSAGES.allAlreadySubmitted(supportEmail()),
      };
      if (!embed) return redirectWithToast(request, back, toast);
      const flow = await loadConnectFlow(request, api, user, { url: `${back}&embed=1` });
      return data(flow, { headers: await toastHeaders(request, toast) });
    }
    await markConnectSubmitted(api, user);
    return success({
      kind: "coned",
      utility: utility.name,
      count: result.submitted.length,
      already: result.alreadySubmitted.length,
    });
  } catch (error) {
    if (!isApiError(error)) throw error;
    return data<ConnectActionData>({ formError: error.message }, { status: 400 });
  }
}
