import type { Submission, SubmissionResult } from "@conform-to/react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import {
  applyAccountListOp,
  conedStepErrors,
  addPendingAccount,
  readAccountList,
  parseAccountListOp,
} from "~/features/accounts/accounts";
import { connectUtility, listUtilities, submitConedAccounts } from "~/features/accounts/accounts.server";
import { CONNECT_INTENTS, type ConnectSession } from "~/features/accounts/utility-connect";
import { getConnectWidgetConfig } from "~/features/accounts/utility-connect.server";
import { CONNECT_MESSAGES } from "~/features/accounts/accounts";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { isApiError, settle } from "~/server/upstream/api-error";
import { getConfig } from "~/server/config.server";
import { createKeyedLimiter, retryAfterText, type LimitResult } from "~/server/ops/rate-limit.server";
import { commitSession, getSession } from "~/server/upstream/session.server";
import { getPublicApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import {
  conedUtilityData,
  PROSPECT_MESSAGES,
  PROSPECT_PATH,
  prospectStep,
  type ProspectAction,
  type ProspectForm,
} from "./prospect";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import {
  HONEYPOT_FIELD,
  PROSPECT_PATH as PATH,
  prospectActionSchema,
  SEARCH_INTENT,
  effectiveIntent,
} from "~/features/prospect/prospect";

const recordSchema = z.object({ id: z.number(), correlationId: z.string() });

export function createProspect(api: ApiClient, form: ProspectForm) {
  return api.post("/prospect-analysis", {
    body: {
      arcadiaProviderId: form.arcadiaProvider,
      firstName: form.firstName,
      email: form.emailAddress,
      prospectName: form.companyName,
      rateQuote: form.rateQuote === "on",
      communicationsConsent: form.communicationsConsent === "on",
      utilityData: null,
    },
    schema: recordSchema,
  });
}

export function updateProspect(
  api: ApiClient,
  id: number,
  p: { arcadiaProviderId: string; prospectName: string; email: string; utilityData: unknown },
) {
  return api.put(`/prospect-analysis/${id}`, { body: p, schema: recordSchema });
}

const connectTokenAnswer = z.object({
  connectToken: z.string().min(1),
  expiresAt: z.string(),
  env: z.enum(["sandbox", "production"]),
});
const connectUrlAnswer = z.object({ connectUrl: z.string().url(), expiresAt: z.string() });

/** What proves to the api that the flow is the prospect's own: the record's email and correlation id. */
const proof = (state: ProspectState) => ({ email: state.email, correlationId: state.correlationId });

/** A Connect token for the prospect's record (JavaScript path; rule prospect-connect-session). */
export function createProspectConnectToken(api: ApiClient, state: ProspectState) {
  return api.post(`/prospect-analysis/${state.id}/connect-token`, {
    body: proof(state),
    schema: connectTokenAnswer,
  });
}

/** A Connect URL for the prospect's record (no-JavaScript path), back to `redirectUrl`. */
export function createProspectConnectUrl(api: ApiClient, state: ProspectState, redirectUrl: string) {
  return api.post(`/prospect-analysis/${state.id}/connect-url`, {
    body: { ...proof(state), redirectUrl },
    schema: connectUrlAnswer,
  });
}

const credentialReportAnswer = z.object({ status: z.string() });

/** Connect's onCredentialsSubmitted on the health check: the provider's credential id and how Connect ended. */
export function reportProspectCredential(
  api: ApiClient,
  state: ProspectState,
  report: { utilityCredentialId: string; status: "verified" | "pending" | "rejected" | "timed_out" },
) {
  return api.post(`/prospect-analysis/${state.id}/credentials`, {
    body: { ...proof(state), ...report },
    schema: credentialReportAnswer,
  });
}

let limiters:
  { email: ReturnType<typeof createKeyedLimiter>; ip: ReturnType<typeof createKeyedLimiter> } | undefined;

/** Accepted starts per email address and hour (per client address: PROSPECT_RATE_LIMIT_PER_IP). */
export const PROSPECT_STARTS_PER_EMAIL = 5;

/**
 * The prospect form's rate limit: accepted starts (a prospect record made) per client address (the socket's,
 * or X-Forwarded-For's through TRUST_PROXY hops, as the sign-in limits read it; PROSPECT_RATE_LIMIT_PER_IP, 20
 * an hour) and per email address (5 an hour). No counter is shared by everybody: one address filling it would
 * switch the form off for every visitor. Counted before the upstream call, so concurrent starts cannot slip
 * past; a start that turns out not to be accepted (an unknown utility, an upstream failure) or is refused
 * gives its count back with `undo()`.
 */
export async function hitProspectLimit(
  clientIp: string,
  email: string,
): Promise<{ limited: LimitResult | null; undo: () => Promise<void> }> {
  limiters ??= {
    email: createKeyedLimiter("prospect-email", PROSPECT_STARTS_PER_EMAIL, 60 * 60_000),
    ip: createKeyedLimiter("prospect-ip", getConfig().PROSPECT_RATE_LIMIT_PER_IP, 60 * 60_000),
  };
  const { email: byEmail, ip: byIp } = limiters;
  const hits = await Promise.all([byEmail.hit(email), byIp.hit(clientIp)]);
  const undo = () => Promise.all([byEmail.undo(email), byIp.undo(clientIp)]).then(() => undefined);
  const limited = hits.filter((h) => h.limited);
  if (limited.length === 0) return { limited: null, undo };
  await undo();
  return {
    limited: { limited: true, retryAfterSeconds: Math.max(...limited.map((h) => h.retryAfterSeconds)) },
    undo: async () => {},
  };
}

const STATE_KEY = "state:prospect" as const;

/** The flow's state between steps, kept in the session cookie (no account exists yet). */
export type ProspectState = {
  id: number;
  correlationId: string;
  email: string;
  company: string;
  provider: string;
  isConed: boolean;
  done: boolean;
};

export async function readProspectState(request: Request) {
  const session = await getSession(request);
  return (session.get(STATE_KEY) as ProspectState | undefined) ?? null;
}

/** Stores (or, with null, forgets) the state and redirects back to the page. */
export async function saveProspectState(request: Request, state: ProspectState | null, to = PROSPECT_PATH) {
  const session = await getSession(request);
  if (state) session.set(STATE_KEY, state);
  else session.unset(STATE_KEY);
  return redirect(to, { headers: { "Set-Cookie": await commitSession(session) } });
}

/**
 * The page's view model: the step, the utility list (the primary data: 502 when it fails), and the ConEd
 * account list, whose edits (add/remove) are GETs like the signed-in flow (the submit is a POST).
 * Throws the redirects of `?restart` and of a successful list edit.
 */
export async function prospectPage(request: Request) {
  const p = new URL(request.url).searchParams;
  const state = await readProspectState(request);
  if (p.get("restart") !== null) throw await saveProspectState(request, null);
  const utilities = await settle(listUtilities(getPublicApi(request)));
  const step = prospectStep(state, p.get("step"));
  const utility =
    utilities.ok && state
      ? (utilities.data.find((u) => u.arcadiaProviderId === state.provider) ?? null)
      : null;

  let accounts = readAccountList(p.getAll("account"));
  let newAccount = "";
  let newAccountError: string | null = null;
  if (step === "coned") {
    const op = parseAccountListOp(p.get("op"), p.get("newAccount"));
    if (op.op !== "none") {
      const result = applyAccountListOp(accounts, op);
      if (result.error) {
        newAccountError = result.error;
        newAccount = p.get("newAccount") ?? "";
      } else {
        const q = new URLSearchParams();
        for (const a of result.accounts) q.append("account", a);
        if (p.get("confirmed") === "on") q.set("confirmed", "on");
        throw redirect(`${PROSPECT_PATH}?${q.toString()}`);
      }
      accounts = result.accounts;
    }
  }
  // The provider's Connect on the connect step, as in the signed-in flow (rule connect-widget-choice): a token
  // the api mints for the prospect's record. Only this page's HTML has it.
  const widget = getConnectWidgetConfig(false);
  let connect: ConnectSession | null = null;
  if (step === "connect" && widget.kind === "provider" && state && utility && !utility.isConed) {
    const minted = await settle(createProspectConnectToken(getPublicApi(request), state));
    connect = minted.ok ? { token: minted.data.connectToken, env: minted.data.env } : { failed: true };
  }
  const view = {
    step,
    error: !utilities.ok,
    utilities: utilities.ok ? utilities.data : [],
    q: (p.get("q") ?? "").slice(0, 100),
    utility,
    company: state?.company ?? "",
    correlationId: state?.correlationId ?? "",
    accounts,
    confirmed: p.get("confirmed") === "on",
    newAccount,
    newAccountError,
    widget,
    connect,
  };
  return { view, utilities };
}

export type ConedErrors = { accounts?: string; confirmed?: string; newAccount?: string };
export type ProspectActionData = {
  intent: string;
  /** The utility search text (the no-JavaScript search). */
  q?: string;
  lastResult?: SubmissionResult<string[]>;
  formError?: string;
  /** How Connect ended when the step stays (rule connect-close-outcome). */
  ended?: "rejected" | "timed_out";
  coned?: { accounts: string[]; confirmed: boolean; errors: ConedErrors; newAccount: string };
};

/**
 * Before the action parses its form: the built-in connect form is checked against the chosen utility (its MFA
 * rule), so that intent looks the utility up first. Returns the schema's mfaExempt, or the response to send
 * (no flow in progress, the utility gone, the lookup failed).
 */
export async function prospectConnectRule(
  request: Request,
  state: ProspectState | null,
  intent: FormDataEntryValue | null,
): Promise<
  { mfaExempt: boolean; response?: undefined } | { response: Response | ReturnType<typeof connectFailed> }
> {
  if (intent !== CONNECT_INTENTS.builtin) return { mfaExempt: true };
  if (!state || state.done) return { response: redirect(PROSPECT_PATH) };
  try {
    const utilities = await listUtilities(getPublicApi(request));
    const utility = utilities.find((u) => u.arcadiaProviderId === state.provider);
    if (!utility) return { response: redirect(`${PROSPECT_PATH}?restart`) };
    return { mfaExempt: utility.mfaExempt };
  } catch (error) {
    if (!isApiError(error)) throw error;
    return { response: connectFailed(intent, error.message) };
  }
}

const connectFailed = (intent: string, message: string) =>
  data<ProspectActionData>(
    { intent, lastResult: { status: "error", error: { "": [message] } } },
    { status: 502 },
  );

/** The first form: the rate limit, the utility check, then the prospect record (only that counts). */
export async function startProspect(
  request: Request,
  clientIp: string,
  submission: Pick<Submission<unknown>, "reply">,
  value: ProspectForm,
) {
  const intent = "start";
  const { limited, undo } = await hitProspectLimit(clientIp, value.emailAddress);
  if (limited) {
    return data<ProspectActionData>(
      { intent, lastResult: submission.reply({ formErrors: [retryAfterText(limited.retryAfterSeconds)] }) },
      { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } },
    );
  }
  const api = getPublicApi(request);
  try {
    const utilities = await listUtilities(api);
    const utility = utilities.find((u) => u.arcadiaProviderId === value.arcadiaProvider);
    if (!utility) {
      await undo();
      return data<ProspectActionData>(
        {
          intent,
          lastResult: submission.reply({
            fieldErrors: { arcadiaProvider: [PROSPECT_MESSAGES.selectUtility] },
          }),
        },
        { status: 400 },
      );
    }
    const record = await createProspect(api, value);
    return saveProspectState(request, {
      id: record.id,
      correlationId: record.correlationId,
      email: value.emailAddress,
      company: value.companyName,
      provider: utility.arcadiaProviderId,
      isConed: utility.isConed,
      done: false,
    });
  } catch (error) {
    await undo();
    if (!isApiError(error)) throw error;
    return data<ProspectActionData>(
      { intent, lastResult: submission.reply({ formErrors: [error.message] }) },
      { status: 502 },
    );
  }
}

/** The ConEd step: the account list (a number still in the add box counts), then the record and the list. */
export async function submitConedStep(
  request: Request,
  state: ProspectState,
  value: Extract<ProspectAction, { intent: "coned-submit" }>,
) {
  const intent = value.intent;
  const confirmed = value.confirmed === "on";
  const { accounts, pending, error } = addPendingAccount(
    readAccountList(value.account ?? []),
    value.newAccount,
  );
  const errors: ConedErrors = error ? { newAccount: error } : {};
  Object.assign(errors, conedStepErrors(accounts, confirmed));
  if (errors.accounts || errors.confirmed || errors.newAccount) {
    return data<ProspectActionData>(
      { intent, coned: { accounts, confirmed, errors, newAccount: errors.newAccount ? pending : "" } },
      { status: 400 },
    );
  }
  const api = getPublicApi(request);
  try {
    await updateProspect(api, state.id, {
      arcadiaProviderId: state.provider,
      prospectName: state.company,
      email: state.email,
      utilityData: conedUtilityData(accounts),
    });
    await submitConedAccounts(api, state.correlationId, accounts);
    return saveProspectState(request, { ...state, done: true });
  } catch (error) {
    if (!isApiError(error)) throw error;
    return data<ProspectActionData>(
      { intent, formError: error.message, coned: { accounts, confirmed, errors: {}, newAccount: "" } },
      { status: 502 },
    );
  }
}

/**
 * The connect step. The provider's Connect (JavaScript) has reported its credential and how it ended: `verified`
 * or `pending` is the flow's success, `rejected` or `timed_out` keeps the step with its message (rule
 * connect-close-outcome). Without JavaScript: a Connect URL, the provider's hosted page, then back to success
 * (its verdict follows by webhook). The built-in form, when configured, sends its credentials upstream.
 */
export async function connectProspect(
  request: Request,
  state: ProspectState,
  value: Extract<
    ProspectAction,
    {
      intent:
        typeof CONNECT_INTENTS.builtin | typeof CONNECT_INTENTS.provider | typeof CONNECT_INTENTS.providerUrl;
    }
  >,
) {
  const api = getPublicApi(request);
  const recordConnection = () =>
    updateProspect(api, state.id, {
      arcadiaProviderId: state.provider,
      prospectName: state.company,
      email: state.email,
      utilityData: { connection_correlation_id: state.correlationId },
    });
  try {
    if (value.intent === CONNECT_INTENTS.providerUrl) {
      const origin = getConfig().PUBLIC_URL ?? new URL(request.url).origin;
      let hosted;
      try {
        hosted = await createProspectConnectUrl(api, state, `${origin}${PROSPECT_PATH}`);
      } catch (error) {
        if (isApiError(error) && error.details.code === "unknown_redirect_url")
          return data<ProspectActionData>(
            { intent: value.intent, formError: CONNECT_MESSAGES.returnAddressRefused(new URL(origin).host) },
            { status: 400 },
          );
        throw error;
      }
      await recordConnection();
      return saveProspectState(request, { ...state, done: true }, hosted.connectUrl);
    }
    if (value.intent === CONNECT_INTENTS.provider) {
      await reportProspectCredential(api, state, {
        utilityCredentialId: value.utilityCredentialId,
        status: value.status,
      });
      if (value.status === "rejected" || value.status === "timed_out")
        return data<ProspectActionData>({
          intent: value.intent,
          formError:
            value.status === "rejected"
              ? CONNECT_MESSAGES.providerRejected
              : CONNECT_MESSAGES.providerTimedOut,
          ended: value.status,
        });
    } else {
      await connectUtility(api, {
        arcadiaProviderId: state.provider,
        username: value.username,
        password: value.password,
        correlationId: state.correlationId,
      });
    }
    await recordConnection();
    return saveProspectState(request, { ...state, done: true });
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (value.intent !== CONNECT_INTENTS.builtin)
      return data<ProspectActionData>(
        { intent: value.intent, formError: CONNECT_MESSAGES.providerFailed },
        { status: 502 },
      );
    return connectFailed(value.intent, error.message);
  }
}

export async function healthCheckLoader({ request }: LoaderFunctionArgs) {
  const { view, utilities } = await prospectPage(request);
  return withPrimaryStatus(view, utilities);
}

export async function healthCheckAction({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  if (effectiveIntent(form) === "start") form.set("intent", "start");
  const state = await readProspectState(request);
  // The built-in connect form is checked against the chosen utility's MFA rule: look it up first.
  const rule = await prospectConnectRule(request, state, form.get("intent"));
  if (rule.response) return rule.response;
  const submission = parseForm(form, { schema: prospectActionSchema(rule.mfaExempt) });
  const intent = String(submission.payload.intent ?? "");

  if (intent === "start" && String(submission.payload[HONEYPOT_FIELD] ?? "") !== "") {
    return data<ProspectActionData>(
      { intent, lastResult: submission.reply({ formErrors: [PROSPECT_MESSAGES.rejected] }) },
      { status: 400 },
    );
  }
  if (submission.status !== "success") {
    // An unknown intent fails the union: a 400 like any invalid form. A later step without a flow starts over.
    const later = !submission.error?.intent && intent !== "start";
    if (later && (!state || state.done)) return redirect(PATH);
    return invalidSubmission(submission, { intent }, { hideFields: ["password"] });
  }
  const value = submission.value;
  // The no-JavaScript utility search: no change, the form comes back with what was typed (its payload).
  if (value.intent === SEARCH_INTENT)
    return data<ProspectActionData>({ intent, q: value.q ?? "", lastResult: submission.reply() });
  if (value.intent === "start")
    return startProspect(request, context.clientIp ?? "unknown", submission, value);
  if (!state || state.done) return redirect(PATH);
  if (value.intent === "coned-submit") return submitConedStep(request, state, value);
  return connectProspect(request, state, value);
}
