import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useFetcher, type FormProps } from "@remix-run/react";
import { useEffect, useRef, useState, type ComponentType, type ReactNode } from "react";
import { CONNECT_MESSAGES, credentialsSchema } from "../accounts";
import { Field, FieldErrors } from "~/ui/field";
import { Alert } from "~/ui/states";
import { useHydrated } from "~/ui/use-hydrated";
import {
  CONNECT_INTENTS,
  type ConnectWidgetConfig,
  type ConnectWidgetUtility,
  type ProviderWidgetGlobal,
} from "../utility-connect";
import { SubmitButton } from "~/ui/pending";

type Props = {
  config: ConnectWidgetConfig;
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

/** The Enter Credentials step: the configured implementation. */
export function ConnectWidget(props: Props) {
  return props.config.kind === "provider" ? (
    <ProviderConnectEmbed {...props} config={props.config} />
  ) : (
    <BuiltinConnectForm {...props} />
  );
}

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

/**
 * The provider's own embed (JavaScript only). Its server-rendered equivalent is the built-in form, shown until
 * the page is hydrated and whenever the provider's script cannot load.
 */
export function ProviderConnectEmbed(
  props: Props & { config: Extract<ConnectWidgetConfig, { kind: "provider" }> },
) {
  const { config, utility, correlationId, hidden } = props;
  const hydrated = useHydrated();
  const container = useRef<HTMLDivElement>(null);
  const fetcher = useFetcher();
  const [failed, setFailed] = useState(false);
  // The latest submit function and hidden values, read when the provider reports success.
  const submitRef = useRef(fetcher.submit);
  const hiddenRef = useRef(hidden);
  submitRef.current = fetcher.submit;
  hiddenRef.current = hidden;
  const { widgetKey, scriptUrl } = config;
  const providerId = utility.arcadiaProviderId;

  useEffect(() => {
    if (!hydrated || failed) return;
    const w = window as unknown as { UtilityDataProvider?: ProviderWidgetGlobal };
    const open = () => {
      if (!w.UtilityDataProvider || !container.current) return setFailed(true);
      w.UtilityDataProvider.open({
        key: widgetKey,
        providerId,
        correlationId,
        container: container.current,
        onSuccess: (result) =>
          submitRef.current(
            {
              ...hiddenRef.current,
              intent: CONNECT_INTENTS.provider,
              correlationId: result.correlationId || correlationId,
            },
            { method: "post" },
          ),
        onError: () => setFailed(true),
      });
    };
    if (w.UtilityDataProvider) return open();
    const script = document.createElement("script");
    script.src = scriptUrl;
    script.async = true;
    script.onload = open;
    script.onerror = () => setFailed(true);
    document.head.appendChild(script);
  }, [hydrated, failed, scriptUrl, widgetKey, providerId, correlationId]);

  if (!hydrated || failed) return <BuiltinConnectForm {...props} />;
  return (
    <div className="stack">
      <p className="muted">{CONNECT_MESSAGES.twelveMonths}</p>
      {utility.isJcpl ? <Alert tone="warning">{CONNECT_MESSAGES.jcplNotice}</Alert> : null}
      <div ref={container} data-testid="provider-widget" aria-live="polite" />
    </div>
  );
}
