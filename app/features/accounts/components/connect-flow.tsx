import { ConedAccountFields } from "./coned-account-list";
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, type FormProps } from "@remix-run/react";
import {
  createContext,
  lazy,
  Suspense,
  useContext,
  useState,
  type ComponentType,
  type ReactNode,
} from "react";
import type { ConnectSession, ConnectWidgetConfig } from "~/features/accounts/utility-connect";
import type { ArcadiaConnectProps } from "./arcadia-connect.client";
import { Alert, ErrorState } from "~/ui/states";
import { useHydrated } from "~/ui/use-hydrated";
import {
  CONNECT_MESSAGES,
  connectSequence,
  connectStepTitle,
  connectUrl,
  soleUtilityMatch,
  type ConnectStep,
  type UtilityOption,
} from "../accounts";
import { AccountStatusBadge } from "./account-status-badge";
import { UtilityPicker } from "./utility-picker";
import { FieldErrors } from "~/ui/field";
import { SubmitButton } from "~/ui/pending";

/**
 * The credentials step's widgets (Conform and the provider's Connect package) are a chunk of their own, loaded on
 * that step only: the flow's other steps and the shell's dialog do without them (tests/ops/js-budget.test.ts).
 * A page rendered on that step has them in its HTML (the server waits for everything, entry.server.tsx).
 */
const loadWidget = () => import("~/features/accounts/components/connect-widget");
const ProviderConnect = lazy(() => loadWidget().then((m) => ({ default: m.ProviderConnect })));
const BuiltinConnectForm = lazy(() => loadWidget().then((m) => ({ default: m.BuiltinConnectForm })));
const widgetLoading = <p aria-busy="true">Loading…</p>;

export type ConnectFlowData =
  | { kind: "error" }
  | {
      kind: "flow";
      /** Rendered inside the shell's dialog (fetcher-driven). */
      embed?: boolean;
      opening?: boolean;
      step: ConnectStep;
      utilities: UtilityOption[];
      utility: UtilityOption | null;
      q: string;
      accounts: string[];
      confirmed: boolean;
      building: number | null;
      credential: number | null;
      errors: { accounts?: string; confirmed?: string; newAccount?: string; utility?: string };
      newAccount: string;
      existing: { building: string; number: string; status: string; detail: string | null }[];
      buildings: { id: number; label: string }[];
      correlationId: string;
      widget: ConnectWidgetConfig;
      /** The provider's Connect session for this step (JavaScript path); only on the connect page. */
      connect: ConnectSession | null;
      receipt: { kind: "provider" | "coned"; utility: string; count: number; already: number } | null;
      /** What the flow says above its step (a Connect link's way back already taken). */
      notice?: string | null;
    };

export type ConnectActionData =
  | {
      lastResult?: SubmissionResult<string[]>;
      formError?: string;
      /** How Connect ended when the step stays (rule connect-close-outcome). */
      ended?: "rejected" | "timed_out";
      /** The hosted page was asked for without the MFA acknowledgement (rule mfa-checkbox). */
      mfaError?: string;
    }
  | undefined;

const ACTION = "/authorize-arcadia";

/**
 * How the flow moves: on its page, Remix forms and links; inside the shell's dialog, a fetcher's form and
 * fetcher loads, so every step stays in the dialog.
 */
export type ConnectFlowNav = {
  Form: ComponentType<FormProps & { children?: ReactNode }>;
  FlowLink: ComponentType<{ to: string; className?: string; children: ReactNode }>;
};
const PageLink: ConnectFlowNav["FlowLink"] = ({ to, className, children }) => (
  <Link to={to} className={className}>
    {children}
  </Link>
);
const NavContext = createContext<ConnectFlowNav>({ Form, FlowLink: PageLink });
const useNav = () => useContext(NavContext);
const EmbedField = ({ data }: { data: { embed?: boolean } }) =>
  data.embed ? <input type="hidden" name="embed" value="1" /> : null;

/** The connect flow (page, and the body of the shell's dialog): one server-driven step at a time. */
export function ConnectFlow(props: {
  data: ConnectFlowData;
  actionData?: ConnectActionData;
  headingLevel?: 1 | 2;
  nav?: ConnectFlowNav;
  /** The provider's Connect opener: only the connect page's route passes it (its package stays there). */
  connectButton?: ComponentType<ArcadiaConnectProps>;
}) {
  const parent = useNav();
  return (
    <NavContext.Provider value={props.nav ?? parent}>
      <ConnectFlowBody {...props} />
    </NavContext.Provider>
  );
}

function ConnectFlowBody({
  data,
  actionData,
  headingLevel = 1,
  connectButton,
}: {
  data: ConnectFlowData;
  actionData?: ConnectActionData;
  headingLevel?: 1 | 2;
  connectButton?: ComponentType<ArcadiaConnectProps>;
}) {
  const { FlowLink } = useNav();
  const H = headingLevel === 1 ? "h1" : "h2";
  if (data.kind === "error") {
    return (
      <div className="stack connect-flow">
        <H>Connect Utility Accounts</H>
        <ErrorState title={CONNECT_MESSAGES.utilitiesFailed} />
      </div>
    );
  }
  const isConed = Boolean(data.utility?.isConed);
  const sequence = connectSequence(isConed);
  const at = sequence.indexOf(data.step);
  return (
    <div className="stack connect-flow">
      <H>{connectStepTitle(data.step, isConed)}</H>
      <ol className="connect-steps" aria-label="Steps">
        {sequence.map((s, i) => (
          <li
            key={s}
            aria-current={s === data.step ? "step" : undefined}
            className={i < at ? "done" : undefined}
          >
            {s === "success" ? "Success" : connectStepTitle(s, isConed)}
          </li>
        ))}
      </ol>
      {data.notice ? <Alert tone="warning">{data.notice}</Alert> : null}
      <div className="card stack">
        {data.step === "select_utility" ? <SelectStep data={data} /> : null}
        {data.step === "review_accounts" ? <ReviewStep data={data} /> : null}
        {data.step === "enter_coned_credentials" ? (
          <ConedAccountsStep
            key={`${data.accounts.join("|")}#${data.newAccount}#${data.errors.newAccount ?? ""}`}
            data={data}
          />
        ) : null}
        {data.step === "connect_arcadia" && isConed ? (
          <ConedConnectStep data={data} formError={actionData?.formError} />
        ) : null}
        {data.step === "connect_arcadia" && !isConed && data.utility ? (
          <CredentialsStep
            data={data}
            utility={data.utility}
            actionData={actionData}
            connectButton={connectButton}
          />
        ) : null}
        {data.step === "success" ? <SuccessStep data={data} /> : null}
        {data.step !== "select_utility" && data.step !== "success" ? (
          <p>
            <FlowLink to={ACTION} className="btn btn-secondary btn-small">
              Back
            </FlowLink>
          </p>
        ) : null}
      </div>
    </div>
  );
}

type FlowData = Extract<ConnectFlowData, { kind: "flow" }>;

/** Enter Credentials: the provider's Connect (the default) or the built-in form, as configured. */
function CredentialsStep({
  data,
  utility,
  actionData,
  connectButton,
}: {
  data: FlowData;
  utility: UtilityOption;
  actionData?: ConnectActionData;
  connectButton?: ComponentType<ArcadiaConnectProps>;
}) {
  const { Form: F } = useNav();
  const hidden = {
    ...(data.embed ? { embed: "1" } : {}),
    utility: utility.arcadiaProviderId,
    ...(data.building ? { building: String(data.building) } : {}),
    ...(data.credential ? { credential: String(data.credential) } : {}),
  };
  if (data.widget.kind === "provider") {
    return (
      <Suspense fallback={widgetLoading}>
        <ProviderConnect
          config={data.widget}
          session={data.connect}
          update={Boolean(data.credential)}
          embed={Boolean(data.embed)}
          pageHref={stepAction(data)}
          formError={actionData?.formError}
          ended={Boolean(actionData?.ended)}
          mfaError={actionData?.mfaError}
          ConnectButton={connectButton}
          utility={utility}
          correlationId={data.correlationId}
          FormComponent={F}
          action={stepAction(data)}
          hidden={hidden}
        />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={widgetLoading}>
      <BuiltinConnectForm
        utility={utility}
        correlationId={data.correlationId}
        FormComponent={F}
        action={stepAction(data)}
        hidden={hidden}
        lastResult={actionData?.lastResult}
      />
    </Suspense>
  );
}

function SelectStep({ data }: { data: FlowData }) {
  const { Form: F } = useNav();
  const hydrated = useHydrated();
  // A search that found one utility selects it: the latest act wins over a utility chosen before it.
  const [selected, setSelected] = useState(
    soleUtilityMatch(data.utilities, data.q)?.arcadiaProviderId ?? data.utility?.arcadiaProviderId ?? "",
  );
  return (
    <>
      <UtilityPicker
        utilities={data.utilities}
        query={data.q}
        selected={selected}
        formId="connect-select"
        searchAction={ACTION}
        keep={{
          ...(data.credential ? { credential: String(data.credential) } : {}),
          ...(data.building ? { building: String(data.building) } : {}),
        }}
        errors={data.errors.utility ? [data.errors.utility] : null}
        onSelect={setSelected}
        selectSoleMatch
      />
      <F method="get" action={ACTION} id="connect-select" className="row">
        <EmbedField data={data} />
        <input type="hidden" name="step" value="review_accounts" />
        {data.credential ? <input type="hidden" name="credential" value={data.credential} /> : null}
        {data.building ? <input type="hidden" name="building" value={data.building} /> : null}
        <SubmitButton className="btn" disabled={hydrated && !selected}>
          Continue
        </SubmitButton>
      </F>
    </>
  );
}

function ReviewStep({ data }: { data: FlowData }) {
  const { Form: F } = useNav();
  const utility = data.utility!;
  // On the page, the credentials step is a document of its own (rule connect-csp-pages): a client-side
  // navigation would keep the policy of the document the flow was entered from (the onboarding checklist, a
  // redirect), which does not allow Connect's script. In the dialog the step links to the page instead.
  return (
    <F method="get" action={ACTION} className="stack" reloadDocument={data.embed ? undefined : true}>
      <EmbedField data={data} />
      <input type="hidden" name="step" value="connect_arcadia" />
      <input type="hidden" name="utility" value={utility.arcadiaProviderId} />
      {data.credential ? <input type="hidden" name="credential" value={data.credential} /> : null}
      <p>
        Utility: <strong>{utility.name}</strong>
      </p>
      {utility.isJcpl ? <Alert tone="warning">{CONNECT_MESSAGES.jcplNotice}</Alert> : null}
      {utility.requiresEbill && !utility.isJcpl ? (
        <p className="field-hint">{CONNECT_MESSAGES.ebillHelper}</p>
      ) : null}
      {data.existing.length > 0 ? (
        <div className="table-wrap table-cards">
          <table className="table connect-accounts">
            <caption className="visually-hidden">Accounts already on file with {utility.name}</caption>
            <thead>
              <tr>
                <th scope="col">Location</th>
                <th scope="col">Account #</th>
                <th scope="col">Bill Monitoring</th>
              </tr>
            </thead>
            <tbody>
              {data.existing.map((a) => (
                <tr key={a.number}>
                  <td data-label="Location">{a.building || "—"}</td>
                  <td data-label="Account #">{a.number}</td>
                  <td data-label="Bill Monitoring">
                    <AccountStatusBadge status={a.status} detail={a.detail} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">
          No {utility.name} accounts are on file yet. Connecting finds every account under your login.
        </p>
      )}
      {data.buildings.length > 0 ? (
        <div className="field">
          <label htmlFor="connect-building">Location for new accounts (optional)</label>
          <select id="connect-building" name="building" className="select" defaultValue={data.building ?? ""}>
            <option value="">Assign later</option>
            {data.buildings.map((b) => (
              <option key={b.id} value={b.id}>
                {b.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="row">
        <SubmitButton className="btn">Continue</SubmitButton>
      </div>
    </F>
  );
}

function ConedAccountsStep({ data }: { data: FlowData }) {
  const { Form: F } = useNav();
  const hydrated = useHydrated();
  const [confirmed, setConfirmed] = useState(data.confirmed);
  const [pending, setPending] = useState(data.newAccount);
  const utility = data.utility!;
  const canContinue = (data.accounts.length > 0 || pending.trim().length > 0) && confirmed;
  return (
    <F method="get" action={ACTION} className="stack" data-testid="coned-accounts">
      <EmbedField data={data} />
      <input type="hidden" name="step" value="enter_coned_credentials" />
      <input type="hidden" name="utility" value={utility.arcadiaProviderId} />
      {data.credential ? <input type="hidden" name="credential" value={data.credential} /> : null}
      <p>
        Enter the {utility.name} account numbers to connect. Each account needs a contact email: the utility
        sends it an approval request.
      </p>
      <ConedAccountFields
        accounts={data.accounts}
        errors={data.errors}
        pending={pending}
        onPendingChange={setPending}
        confirmed={confirmed}
        onConfirmedChange={setConfirmed}
        level={2}
      />
      <div className="row">
        <SubmitButton name="op" value="continue" className="btn" disabled={hydrated && !canContinue}>
          Continue
        </SubmitButton>
      </div>
    </F>
  );
}

/**
 * A step's own URL as the post target: when the action refuses a submission (400/502) without JavaScript, the
 * page re-renders this step with the message and what was typed, not the first step.
 */
function stepAction(data: FlowData) {
  return connectUrl({
    step: data.step,
    utility: data.utility?.arcadiaProviderId,
    accounts: data.accounts,
    confirmed: data.confirmed,
    building: data.building,
    credential: data.credential,
  });
}

function ConedConnectStep({ data, formError }: { data: FlowData; formError?: string }) {
  const { Form: F, FlowLink } = useNav();
  const utility = data.utility!;
  return (
    <F method="post" action={stepAction(data)} className="stack">
      <EmbedField data={data} />
      <input type="hidden" name="utility" value={utility.arcadiaProviderId} />
      <input type="hidden" name="correlationId" value={data.correlationId} />
      {data.accounts.map((a) => (
        <input key={a} type="hidden" name="account" value={a} />
      ))}
      <p>
        {utility.name} accounts to connect ({data.accounts.length}):
      </p>
      <ul className="account-list">
        {data.accounts.map((a) => (
          <li key={a}>{a}</li>
        ))}
      </ul>
      <Alert tone="info">{CONNECT_MESSAGES.conedEmailNotice}</Alert>
      <p className="muted">{CONNECT_MESSAGES.twelveMonths}</p>
      <FieldErrors errors={formError ? [formError] : null} alert />
      <div className="row">
        <FlowLink
          className="btn btn-secondary"
          to={connectUrl({
            step: "enter_coned_credentials",
            utility: utility.arcadiaProviderId,
            accounts: data.accounts,
            confirmed: true,
          })}
        >
          Edit accounts
        </FlowLink>{" "}
        <SubmitButton name="intent" value="coned-submit" className="btn">
          Connect
        </SubmitButton>
      </div>
    </F>
  );
}

function SuccessStep({ data }: { data: FlowData }) {
  const { FlowLink } = useNav();
  const r = data.receipt;
  return (
    <div className="stack" data-testid="connect-success">
      {r?.kind === "coned" ? (
        <>
          <p>
            {r.count} {r.utility} account{r.count === 1 ? "" : "s"} submitted.
            {r.already > 0 ? ` ${r.already} had already been submitted.` : ""}
          </p>
          <p>
            Emails arrive at the address associated with each account within 2-3 minutes and must be approved.
          </p>
        </>
      ) : (
        <>
          <p>
            We are connecting your {r?.utility ?? "utility"} accounts. Their status shows on the accounts page
            and updates within a few minutes.
          </p>
          <p data-testid="connect-what-next">{CONNECT_MESSAGES.whatNext}</p>
        </>
      )}
      <div className="row">
        <FlowLink to={ACTION} className="btn">
          {CONNECT_MESSAGES.connectAnother}
        </FlowLink>
        <Link to="/accounts" className="btn btn-secondary">
          View connected accounts
        </Link>
      </div>
    </div>
  );
}
