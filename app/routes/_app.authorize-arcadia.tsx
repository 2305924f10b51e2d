import { commitSession, getSession, redirectWithToast, toastHeaders } from "~/server/upstream/session.server";
import {
  connectUtility,
  listUtilities,
  markConnectFlowOpened,
  markConnectSubmitted,
  submitConedAccounts,
} from "~/features/accounts/accounts.server";
import { data, redirect } from "@remix-run/node";
import { getApi } from "~/server/upstream/upstream.server";
import { requireClientUser } from "~/server/upstream/guards.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { supportEmail } from "~/server/config.server";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  CONNECT_MESSAGES,
  conedStepErrors,
  connectUrl,
  credentialsSchema,
  readAccountList,
} from "~/features/accounts/accounts";
import { ConnectFlow, type ConnectActionData } from "~/features/accounts/components/connect-flow";
import styles from "~/features/accounts/accounts.css";
import {
  loadConnectFlow,
  RECEIPT_KEY,
  redirectToSuccess,
  type ConnectReceipt,
} from "~/features/accounts/connect-flow.server";
import { connectActionSchema } from "~/features/accounts/connect-action.server";
import { CONNECT_INTENTS } from "~/features/accounts/utility-connect";
import { isApiError } from "~/server/upstream/api-error";
import { safeRedirect } from "~/server/safe-redirect";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireClientUser(request);
  const flow = await loadConnectFlow(request, await getApi(request, context), user);
  return data(flow, { status: flow.kind === "error" ? flow.status : 200 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireClientUser(request);
  const form = await request.formData();
  // One schema: an unknown intent or a step without its utility fails here (a 400 and the reply).
  const parsed = parseForm(form, { schema: connectActionSchema });
  if (parsed.status !== "success") return invalidSubmission(parsed);
  const value = parsed.value;
  const api = await getApi(request, context);
  if (value.intent === "opened") {
    // The Connect Utility Accounts button (with and without JavaScript): bill_monitoring in progress and task
    // step 1, then the flow (this page, or the shell's dialog). A GET of the flow never records it.
    await markConnectFlowOpened(api, user);
    return redirect(safeRedirect(value.next, "/authorize-arcadia"));
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
    // The provider's widget connected the accounts itself; only the onboarding task is ours to record.
    await markConnectSubmitted(api, user);
    return success({ kind: "provider", utility: utility.name, count: 0, already: 0 });
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

export default function AuthorizeArcadia() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <ConnectFlow
      data={loaderData}
      actionData={actionData && !("kind" in actionData) ? actionData : undefined}
    />
  );
}

export const meta: MetaFunction = () => [{ title: "Connect Utility Accounts · EnergyOps" }];
