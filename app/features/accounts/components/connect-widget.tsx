import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useSubmit, type FormProps } from "@remix-run/react";
import { useState, type ComponentType, type ReactNode } from "react";
import { CONNECT_MESSAGES, credentialsSchema } from "../accounts";
import { Field, FieldErrors } from "~/ui/field";
import { Alert } from "~/ui/states";
import { useHydrated } from "~/ui/use-hydrated";
import {
  CONNECT_INTENTS,
  type ConnectSession,
  type ConnectWidgetConfig,
  type ConnectWidgetUtility,
} from "../utility-connect";
import type { ArcadiaConnectProps } from "./arcadia-connect.client";
import { SubmitButton } from "~/ui/pending";

type Props = {
  utility: ConnectWidgetUtility;
  correlationId: string;
  /** Hidden fields the route's action needs back (utility, building, credential, the flow's own state). */
  hidden: Record<string, string>;
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel?: string;
  /** Where the form posts (default: the current route). */
  action?: string;
  /** The form component: Remix's Form on a page, a fetcher's Form inside a dialog. */
  FormComponent?: ComponentType<FormProps & { children?: ReactNode }>;
};

/** The built-in implementation: a server-rendered username and password form (POST, works without JavaScript). */
export function BuiltinConnectForm({
  utility,
  correlationId,
  hidden,
  lastResult,
  submitLabel = "Connect",
  action,
  FormComponent = Form,
}: Props) {
  const hydrated = useHydrated();
  const schema = credentialsSchema(utility.mfaExempt);
  const [form, fields] = useForm({
    id: "connect-credentials",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const valid = schema.safeParse({
    username: fields.username.value ?? "",
    password: fields.password.value ?? "",
    mfaAcknowledged: fields.mfaAcknowledged.value,
  }).success;
  return (
    <FormComponent
      method="post"
      action={action}
      {...getFormProps(form)}
      noValidate={hydrated}
      className="stack"
      data-testid="builtin-connect"
    >
      <input type="hidden" name="correlationId" value={correlationId} />
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <p className="muted">{CONNECT_MESSAGES.twelveMonths}</p>
      {utility.isJcpl ? <Alert tone="warning">{CONNECT_MESSAGES.jcplNotice}</Alert> : null}
      {utility.requiresEbill && !utility.isJcpl ? (
        <p className="field-hint">{CONNECT_MESSAGES.ebillHelper}</p>
      ) : null}
      <Field
        label={`${utility.name} username`}
        {...getInputProps(fields.username, { type: "text" })}
        id="connect-username"
        autoComplete="off"
        required
        errors={fields.username.errors}
      />
      <Field
        label={`${utility.name} password`}
        {...getInputProps(fields.password, { type: "password" })}
        id="connect-password"
        autoComplete="off"
        required
        errors={fields.password.errors}
      />
      {utility.mfaExempt ? null : (
        <div className="field">
          <label className="checkbox" htmlFor="connect-mfa">
            <input
              {...getInputProps(fields.mfaAcknowledged, { type: "checkbox", value: "on" })}
              id="connect-mfa"
              required
              aria-describedby={fields.mfaAcknowledged.errors ? "connect-mfa-error" : undefined}
            />
            <span>{CONNECT_MESSAGES.mfaCheckbox}</span>
          </label>
          <FieldErrors id="connect-mfa-error" errors={fields.mfaAcknowledged.errors} />
        </div>
      )}
      <FieldErrors id={form.errorId} errors={form.errors} alert />
      <div className="row">
        <SubmitButton
          name="intent"
          value={CONNECT_INTENTS.builtin}
          className="btn"
          disabled={hydrated && (!valid || !form.dirty)}
        >
          {submitLabel}
        </SubmitButton>
      </div>
    </FormComponent>
  );
}

/** What each way Connect can end says on the step (rule connect-close-messages). */
export function connectProblemMessage(status: string): string | null {
  if (status === "no_submit" || status === "verified" || status === "pending") return null;
  if (status === "rejected") return CONNECT_MESSAGES.providerRejected;
  if (status === "timed_out") return CONNECT_MESSAGES.providerTimedOut;
  return CONNECT_MESSAGES.providerFailed;
}

/**
 * The provider's Connect. Server-rendered, and whenever JavaScript is off or Connect cannot load:
 * a button posting to our action, which sends the person to the provider's hosted page (a Connect URL) and
 * back to the success step. Hydrated with a Connect token: the same button opens Connect over the page, and
 * `onCredentialsSubmitted` posts the provider's credential id, which moves the flow to "Connection(s) Initiated".
 * Inside the shell's dialog (no Connect there: its policy is the connect page's alone) a link to the page.
 */
export function ProviderConnect(
  props: Props & {
    config: Extract<ConnectWidgetConfig, { kind: "provider" }>;
    session: ConnectSession | null;
    update: boolean;
    embed: boolean;
    pageHref: string;
    formError?: string;
    /** Connect ended with a verdict that keeps the step (rejected, timed out). */
    ended?: boolean;
    /** The server refused the step without the MFA acknowledgement (rule mfa-checkbox). */
    mfaError?: string;
    /** Connect's opener (arcadia-connect.client.tsx), given by the connect page's route only. */
    ConnectButton?: ComponentType<ArcadiaConnectProps>;
  },
) {
  const { config, utility, correlationId, hidden, session, update, embed, pageHref, action } = props;
  const ArcadiaConnectButton = props.ConnectButton;
  const FormComponent = props.FormComponent ?? Form;
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [problem, setProblem] = useState<string | null>(null);
  const [scriptFailed, setScriptFailed] = useState(false);
  // Connect opens only once a utility that is not exempt has its MFA warning acknowledged (rule mfa-checkbox).
  const needsAck = !utility.mfaExempt && !embed;
  const [acknowledged, setAcknowledged] = useState(false);
  const blocked = needsAck && !acknowledged;
  // After Connect said the login failed (rejected, timed out), the step offers to connect again.
  const label = update || props.ended ? "Reconnect" : "Connect";
  const message =
    problem ?? props.formError ?? (session && "failed" in session ? CONNECT_MESSAGES.providerFailed : null);
  const canOpen = hydrated && !scriptFailed && session && "token" in session && ArcadiaConnectButton;
  return (
    <div className="stack" data-testid="provider-connect">
      <p className="muted">{CONNECT_MESSAGES.twelveMonths}</p>
      {utility.isJcpl ? <Alert tone="warning">{CONNECT_MESSAGES.jcplNotice}</Alert> : null}
      {utility.requiresEbill && !utility.isJcpl ? (
        <p className="field-hint">{CONNECT_MESSAGES.ebillHelper}</p>
      ) : null}
      <p>
        {update
          ? CONNECT_MESSAGES.providerUpdateIntro(utility.name)
          : CONNECT_MESSAGES.providerIntro(utility.name)}
      </p>
      {message ? <Alert tone="error">{message}</Alert> : null}
      {embed ? (
        <p>
          <a href={pageHref} className="btn">
            {label}
          </a>
        </p>
      ) : (
        <FormComponent method="post" action={action} className="row">
          <input type="hidden" name="correlationId" value={correlationId} />
          {Object.entries(hidden).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          {needsAck ? (
            <div className="field">
              <label className="checkbox" htmlFor="connect-mfa">
                <input
                  type="checkbox"
                  name="mfaAcknowledged"
                  value="on"
                  id="connect-mfa"
                  required
                  onChange={(e) => setAcknowledged(e.currentTarget.checked)}
                  aria-invalid={props.mfaError && !acknowledged ? true : undefined}
                  aria-describedby={props.mfaError && !acknowledged ? "connect-mfa-error" : undefined}
                />
                <span>{CONNECT_MESSAGES.mfaCheckbox}</span>
              </label>
              {!acknowledged ? (
                <FieldErrors id="connect-mfa-error" errors={props.mfaError ? [props.mfaError] : null} />
              ) : null}
            </div>
          ) : null}
          {canOpen && ArcadiaConnectButton ? (
            <ArcadiaConnectButton
              scriptUrl={config.scriptUrl}
              connectToken={session.token}
              env={session.env}
              utilityId={update ? undefined : utility.arcadiaProviderId}
              label={label}
              disabled={blocked}
              onSubmitted={(utilityCredentialId, status) => {
                setProblem(null);
                submit(
                  { ...hidden, correlationId, intent: CONNECT_INTENTS.provider, utilityCredentialId, status },
                  { method: "post", action },
                );
              }}
              onProblem={(status) => {
                if (status === "script") setScriptFailed(true);
                setProblem(connectProblemMessage(status));
              }}
            />
          ) : (
            <SubmitButton
              name="intent"
              value={CONNECT_INTENTS.providerUrl}
              className="btn"
              disabled={hydrated && blocked}
            >
              {label}
            </SubmitButton>
          )}
        </FormComponent>
      )}
    </div>
  );
}
