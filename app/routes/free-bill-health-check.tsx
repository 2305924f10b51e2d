import { ConedAccountFields } from "~/features/accounts/components/coned-account-list";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import {
  applyAccountListOp,
  CONNECT_MESSAGES,
  conedStepErrors,
  credentialsSchema,
  normalizeAccountNumber,
  parseAccountListOp,
  type UtilityOption,
} from "~/features/accounts/accounts";
import accountStyles from "~/features/accounts/accounts.css";
import { connectUtility, listUtilities, submitConedAccounts } from "~/features/accounts/accounts.server";
import { UtilityPicker } from "~/features/accounts/components/utility-picker";
import {
  conedUtilityData,
  HONEYPOT_FIELD,
  PROSPECT_MESSAGES,
  prospectSchema,
  prospectStep,
} from "~/features/prospect/prospect";
import styles from "~/features/prospect/prospect.css";
import { createProspect, hitProspectLimit, updateProspect } from "~/features/prospect/prospect.server";
import { ConnectWidget } from "~/features/accounts/components/connect-widget";
import { CONNECT_INTENTS } from "~/features/accounts/utility-connect";
import { getConnectWidgetConfig } from "~/features/accounts/utility-connect.server";
import { isApiError, settle } from "~/server/api-error";
import { retryAfterText } from "~/server/rate-limit.server";
import { commitSession, getSession } from "~/server/session.server";
import { getPublicApi, withPrimaryStatus } from "~/server/upstream.server";
import { PublicPage } from "~/ui/brand";
import { Field, FieldErrors } from "~/ui/field";
import { Alert, ErrorState } from "~/ui/states";
import { useHydrated } from "~/ui/use-hydrated";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: styles },
];

const PATH = "/free-bill-health-check";
const STATE_KEY = "state:prospect" as const;
type ProspectState = {
  id: number;
  correlationId: string;
  email: string;
  company: string;
  provider: string;
  isConed: boolean;
  done: boolean;
};

async function readState(request: Request) {
  const session = await getSession(request);
  return { session, state: (session.get(STATE_KEY) as ProspectState | undefined) ?? null };
}

async function saveState(request: Request, state: ProspectState | null, to = PATH) {
  const session = await getSession(request);
  if (state) session.set(STATE_KEY, state);
  else session.unset(STATE_KEY);
  return redirect(to, { headers: { "Set-Cookie": await commitSession(session) } });
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const p = url.searchParams;
  const { state } = await readState(request);
  if (p.get("restart") !== null) throw await saveState(request, null);
  const utilities = await settle(listUtilities(getPublicApi(request)));
  const step = prospectStep(state, p.get("step"));
  const utility =
    utilities.ok && state
      ? (utilities.data.find((u) => u.arcadiaProviderId === state.provider) ?? null)
      : null;

  // ConEd account list edits are GET (add/remove), like the signed-in flow; the submit is a POST.
  let accounts = p.getAll("account").map(normalizeAccountNumber).filter(Boolean).slice(0, 50);
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
        throw redirect(`${PATH}?${q.toString()}`);
      }
      accounts = result.accounts;
    }
  }
  return withPrimaryStatus({
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
    widget: getConnectWidgetConfig(),
  }, utilities);
}

type ActionData = {
  intent: string;
  lastResult?: SubmissionResult<string[]>;
  formError?: string;
  coned?: {
    accounts: string[];
    confirmed: boolean;
    errors: { accounts?: string; confirmed?: string; newAccount?: string };
    newAccount: string;
  };
};

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const api = getPublicApi(request);
  const { state } = await readState(request);

  if (intent === "start") {
    const submission = parseWithZod(form, { schema: prospectSchema });
    if (String(form.get(HONEYPOT_FIELD) ?? "") !== "") {
      return data<ActionData>(
        { intent, lastResult: submission.reply({ formErrors: [PROSPECT_MESSAGES.rejected] }) },
        { status: 400 },
      );
    }
    if (submission.status !== "success")
      return data<ActionData>({ intent, lastResult: submission.reply() }, { status: 400 });
    const limited = await hitProspectLimit(request, submission.value.emailAddress);
    if (limited) {
      return data<ActionData>(
        { intent, lastResult: submission.reply({ formErrors: [retryAfterText(limited.retryAfterSeconds)] }) },
        { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } },
      );
    }
    try {
      const utilities = await listUtilities(api);
      const utility = utilities.find((u) => u.arcadiaProviderId === submission.value.arcadiaProvider);
      if (!utility)
        return data<ActionData>(
          {
            intent,
            lastResult: submission.reply({
              fieldErrors: { arcadiaProvider: [PROSPECT_MESSAGES.selectUtility] },
            }),
          },
          { status: 400 },
        );
      const record = await createProspect(api, submission.value);
      return saveState(request, {
        id: record.id,
        correlationId: record.correlationId,
        email: submission.value.emailAddress,
        company: submission.value.companyName,
        provider: utility.arcadiaProviderId,
        isConed: utility.isConed,
        done: false,
      });
    } catch (error) {
      if (!isApiError(error)) throw error;
      return data<ActionData>(
        { intent, lastResult: submission.reply({ formErrors: [error.message] }) },
        { status: 502 },
      );
    }
  }

  if (!state || state.done) return redirect(PATH);

  if (intent === "coned-submit") {
    let accounts = form
      .getAll("account")
      .map((v) => normalizeAccountNumber(String(v)))
      .filter(Boolean)
      .slice(0, 50);
    const confirmed = form.get("confirmed") === "on";
    const pending = String(form.get("newAccount") ?? "").trim();
    const errors: { accounts?: string; confirmed?: string; newAccount?: string } = {};
    if (pending) {
      const added = applyAccountListOp(accounts, { op: "add", value: pending });
      if (added.error) errors.newAccount = added.error;
      else accounts = added.accounts;
    }
    Object.assign(errors, conedStepErrors(accounts, confirmed));
    if (errors.accounts || errors.confirmed || errors.newAccount) {
      return data<ActionData>(
        { intent, coned: { accounts, confirmed, errors, newAccount: errors.newAccount ? pending : "" } },
        { status: 400 },
      );
    }
    try {
      await updateProspect(api, state.id, {
        arcadiaProviderId: state.provider,
        prospectName: state.company,
        email: state.email,
        utilityData: conedUtilityData(accounts),
      });
      await submitConedAccounts(api, state.correlationId, accounts);
      return saveState(request, { ...state, done: true });
    } catch (error) {
      if (!isApiError(error)) throw error;
      return data<ActionData>(
        { intent, formError: error.message, coned: { accounts, confirmed, errors: {}, newAccount: "" } },
        { status: 502 },
      );
    }
  }

  if (intent === CONNECT_INTENTS.builtin || intent === CONNECT_INTENTS.provider) {
    try {
      if (intent === CONNECT_INTENTS.builtin) {
        const utilities = await listUtilities(api);
        const utility = utilities.find((u) => u.arcadiaProviderId === state.provider);
        if (!utility) return redirect(`${PATH}?restart`);
        const submission = parseWithZod(form, { schema: credentialsSchema(utility.mfaExempt) });
        if (submission.status !== "success")
          return data<ActionData>(
            { intent, lastResult: submission.reply({ hideFields: ["password"] }) },
            { status: 400 },
          );
        await connectUtility(api, {
          arcadiaProviderId: utility.arcadiaProviderId,
          username: submission.value.username,
          password: submission.value.password,
          correlationId: state.correlationId,
        });
      }
      await updateProspect(api, state.id, {
        arcadiaProviderId: state.provider,
        prospectName: state.company,
        email: state.email,
        utilityData: { connection_correlation_id: state.correlationId },
      });
      return saveState(request, { ...state, done: true });
    } catch (error) {
      if (!isApiError(error)) throw error;
      return data<ActionData>(
        { intent, lastResult: { status: "error", error: { "": [error.message] } } },
        { status: 502 },
      );
    }
  }
  throw data({ message: "Unknown intent" }, { status: 400 });
}

export const meta: MetaFunction = () => [
  { title: "Free bill health check · EnergyOps" },
  { name: "description", content: "Submit your utility accounts for a free bill health check." },
];

export default function FreeBillHealthCheck() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <PublicPage wide>
      <div className="prospect stack">
        <h1>{d.step === "success" ? PROSPECT_MESSAGES.successTitle : PROSPECT_MESSAGES.title}</h1>
        {d.error ? (
          <ErrorState title={CONNECT_MESSAGES.utilitiesFailed} />
        ) : d.step === "form" ? (
          <StartStep
            utilities={d.utilities}
            q={d.q}
            lastResult={actionData?.intent === "start" ? actionData.lastResult : undefined}
          />
        ) : d.step === "coned" ? (
          <ConedStep
            key={`${d.accounts.join("|")}#${d.newAccount}#${d.newAccountError ?? ""}#${actionData?.intent ?? ""}`}
          />
        ) : d.step === "connect" && d.utility ? (
          <div className="card stack">
            <h2>Connect your {d.utility.name} account</h2>
            <ConnectWidget
              config={d.widget}
              utility={d.utility}
              correlationId={d.correlationId}
              hidden={{}}
              lastResult={actionData && actionData.intent !== "start" ? actionData.lastResult : undefined}
            />
            <p>
              <Link to={`${PATH}?restart`}>Start over</Link>
            </p>
          </div>
        ) : (
          <div className="card stack" data-testid="prospect-success">
            <p>{PROSPECT_MESSAGES.successText}</p>
            <p>
              <Link to={`${PATH}?restart`} className="btn btn-secondary">
                Submit another request
              </Link>
            </p>
          </div>
        )}
        <p className="muted">
          <Link to="/login">Log in</Link> · <Link to="/privacy-policy">Privacy policy</Link>
        </p>
      </div>
    </PublicPage>
  );
}

function StartStep({
  utilities,
  q,
  lastResult,
}: {
  utilities: UtilityOption[];
  q: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "prospect-start",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: prospectSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [provider, setProvider] = useState(
    typeof fields.arcadiaProvider.initialValue === "string" ? fields.arcadiaProvider.initialValue : "",
  );
  const valid = prospectSchema.safeParse({
    firstName: fields.firstName.value ?? "",
    emailAddress: fields.emailAddress.value ?? "",
    companyName: fields.companyName.value ?? "",
    arcadiaProvider: provider,
  }).success;
  return (
    <div className="card stack">
      <p>
        Tell us where to send your results and which utility serves you. We check your bills for errors, rate
        changes and savings.
      </p>
      <UtilityPicker
        utilities={utilities}
        query={q}
        selected={provider}
        formId={form.id}
        searchAction={PATH}
        name="arcadiaProvider"
        errors={fields.arcadiaProvider.errors}
        onSelect={setProvider}
      />
      <Form method="post" action={PATH} {...getFormProps(form)} noValidate={hydrated} className="stack">
        <Field
          label="First name"
          {...getInputProps(fields.firstName, { type: "text" })}
          id="firstName"
          autoComplete="given-name"
          required
          errors={fields.firstName.errors}
        />
        <Field
          label="Email address"
          {...getInputProps(fields.emailAddress, { type: "email" })}
          id="emailAddress"
          autoComplete="email"
          required
          errors={fields.emailAddress.errors}
        />
        <Field
          label="Company name"
          {...getInputProps(fields.companyName, { type: "text" })}
          id="companyName"
          autoComplete="organization"
          required
          errors={fields.companyName.errors}
        />
        <label className="checkbox" htmlFor="rateQuote">
          <input {...getInputProps(fields.rateQuote, { type: "checkbox", value: "on" })} id="rateQuote" />
          <span>{PROSPECT_MESSAGES.rateQuote}</span>
        </label>
        <label className="checkbox" htmlFor="communicationsConsent">
          <input
            {...getInputProps(fields.communicationsConsent, { type: "checkbox", value: "on" })}
            id="communicationsConsent"
          />
          <span>{PROSPECT_MESSAGES.communicationsConsent}</span>
        </label>
        <div className="honeypot" aria-hidden="true">
          <label htmlFor={HONEYPOT_FIELD}>Leave this field empty</label>
          <input
            id={HONEYPOT_FIELD}
            name={HONEYPOT_FIELD}
            type="text"
            tabIndex={-1}
            autoComplete="off"
            defaultValue=""
          />
        </div>
        <FieldErrors id={form.errorId} errors={form.errors} alert />
        <div className="row">
          <button
            type="submit"
            name="intent"
            value="start"
            className="btn"
            disabled={hydrated && (!valid || !form.dirty || navigation.state === "submitting")}
          >
            Continue
          </button>
        </div>
      </Form>
    </div>
  );
}

function ConedStep() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const fromAction = actionData?.intent === "coned-submit" ? actionData.coned : undefined;
  const accounts = fromAction?.accounts ?? d.accounts;
  const errors = fromAction?.errors ?? (d.newAccountError ? { newAccount: d.newAccountError } : {});
  const [confirmed, setConfirmed] = useState(fromAction?.confirmed ?? d.confirmed);
  const [pending, setPending] = useState(fromAction?.newAccount ?? d.newAccount);
  const canSubmit = (accounts.length > 0 || pending.trim().length > 0) && confirmed;
  return (
    <Form method="get" action={PATH} className="card stack" data-testid="coned-accounts">
      <h2>Enter your {d.utility?.name} account numbers</h2>
      <ConedAccountFields
        accounts={accounts}
        errors={errors}
        pending={pending}
        onPendingChange={setPending}
        confirmed={confirmed}
        onConfirmedChange={setConfirmed}
        level={3}
      />
      <Alert tone="info">{CONNECT_MESSAGES.conedEmailNotice}</Alert>
      <FieldErrors errors={actionData?.formError ? [actionData.formError] : null} alert />
      <div className="row">
        <button
          type="submit"
          name="intent"
          value="coned-submit"
          formMethod="post"
          className="btn"
          disabled={hydrated && !canSubmit}
        >
          Submit
        </button>
        <Link to={`${PATH}?restart`}>Start over</Link>
      </div>
    </Form>
  );
}
