import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useFetcher } from "@remix-run/react";
import { Fragment, useEffect, useRef, type FormEvent } from "react";
import { Field, SelectField } from "~/ui/field";
import { Alert } from "~/ui/states";
import { SUBMISSION_ID_FIELD, SubmissionIdInput } from "~/ui/submission-id";
import { useHydrated } from "~/ui/use-hydrated";
import {
  canSave,
  limitsOf,
  modeDisplayName,
  saveFailureToast,
  settingsSchema,
  type ThermostatInfo,
} from "../thermostats";
import { usePageToast } from "~/ui/toasts";
import { SubmitButton } from "~/ui/pending";

/** The device's settings, or while a change is pending the values it asked for (the form resets when it finishes). */
function formDefaults({ state, thermostatAction: action }: ThermostatInfo) {
  const asked = action?.status === "pending" ? action.deviceSpecificData : {};
  const mode = asked.mode ?? state.mode;
  const cool = asked.coolSetpointF ?? state.coolSetpointF;
  const heat = asked.heatSetpointF ?? state.heatSetpointF;
  return {
    mode: mode ?? "",
    coolSetpointF: cool === null ? "" : String(cool),
    heatSetpointF: heat === null ? "" : String(heat),
  };
}

export type SettingsReply = {
  intent: "save";
  thermostatId: number;
  lastResult: SubmissionResult<string[]>;
  /** Save failed upstream (not the form's own errors): the message the card shows, and the toast with JavaScript. */
  failure?: string;
};

/**
 * The setting form of a card (rules thermostat-settings-schema and changed-fields-only, docs/rules.md): Conform + the device's Zod schema, validated as you type
 * with JavaScript and always on the server. Save is enabled only when valid and changed; Cancel resets.
 */
const constraints = new WeakMap<object, ReturnType<typeof getZodConstraint>>();
function constraintOf(schema: ReturnType<typeof settingsSchema>) {
  let c = constraints.get(schema);
  if (!c) constraints.set(schema, (c = getZodConstraint(schema)));
  return c;
}

export function SettingsForm(props: {
  item: ThermostatInfo;
  tab: string;
  serverReply?: SettingsReply;
  /** Rendered by the server for this page load; a repeat of the same submission is answered once (ADR 0010). */
  submissionId: string;
  /**
   * Whether the form runs Conform and the device's schema: once its disclosure has been opened, or to show a
   * reply. Closed, it renders the same HTML (what a no-JS user submits) without building any form state, so a
   * page of cards hydrates without a Conform form and a Zod parse per card.
   */
  live: boolean;
}) {
  return props.live ? <LiveSettingsForm {...props} /> : <ClosedSettingsForm {...props} />;
}

/** The form's HTML before it is opened: Conform's markup for the same defaults and the schema's constraints. */
function ClosedSettingsForm({
  item,
  tab,
  submissionId,
}: {
  item: ThermostatInfo;
  tab: string;
  submissionId: string;
}) {
  const { thermostat, state } = item;
  const id = thermostat.id;
  const fetcher = useFetcher<SettingsReply>({ key: `settings-${id}` });
  const formId = `settings-${id}`;
  const limits = limitsOf(item);
  const defaults = formDefaults(item);
  const setpoint = { form: formId, required: true, min: limits.minSetpointF, max: limits.maxSetpointF };
  return (
    <fetcher.Form
      method="post"
      id={formId}
      noValidate
      className="thermo-form"
      aria-label={`Settings of ${thermostat.deviceName}`}
    >
      <input type="hidden" name="thermostatId" value={id} />
      <input type="hidden" name="tab" value={tab} />
      <SubmissionIdInput value={submissionId} />
      <SelectField
        label="Mode"
        required
        name="mode"
        form={formId}
        defaultValue={defaults.mode || undefined}
        id={`${formId}-mode`}
      >
        <ModeOptions state={state} />
      </SelectField>
      <div className="thermo-form-row">
        <Field
          label="Cool setpoint (°F)"
          name="coolSetpointF"
          {...setpoint}
          type="number"
          defaultValue={defaults.coolSetpointF || undefined}
          id={`${formId}-cool`}
          step={1}
          inputMode="numeric"
        />
        <Field
          label="Heat setpoint (°F)"
          name="heatSetpointF"
          {...setpoint}
          type="number"
          defaultValue={defaults.heatSetpointF || undefined}
          id={`${formId}-heat`}
          step={1}
          inputMode="numeric"
        />
      </div>
      <FormButtons disabled={false} pending={fetcher.state !== "idle"} />
    </fetcher.Form>
  );
}

function ModeOptions({ state }: { state: ThermostatInfo["state"] }) {
  const modes =
    state.mode && !state.allowedModes.includes(state.mode)
      ? [...state.allowedModes, state.mode]
      : state.allowedModes;
  return (
    <>
      {state.mode ? null : <option value="">Choose a mode</option>}
      {modes.map((m) => (
        <option key={m} value={m}>
          {modeDisplayName(m)}
        </option>
      ))}
    </>
  );
}

function FormButtons({ disabled, pending }: { disabled: boolean; pending: boolean }) {
  return (
    <div className="row">
      <SubmitButton
        name="intent"
        value="save"
        className="btn btn-small"
        disabled={disabled}
        pending={pending}
        pendingLabel="Saving…"
      >
        Save
      </SubmitButton>{" "}
      <button type="reset" className="btn btn-secondary btn-small">
        Cancel
      </button>
    </div>
  );
}

/** The submission id a failed Save sent (the form's values come back from its reply), if any. */
const sentId = (value: unknown) => (typeof value === "string" && value ? value : undefined);

function LiveSettingsForm({
  item,
  tab,
  serverReply,
  submissionId,
}: {
  item: ThermostatInfo;
  tab: string;
  serverReply?: SettingsReply;
  submissionId: string;
}) {
  const { thermostat, state } = item;
  const id = thermostat.id;
  const hydrated = useHydrated();
  const fetcher = useFetcher<SettingsReply>({ key: `settings-${id}` });
  const limits = limitsOf(item);
  // Devices with the same limits share one schema and its constraints (both cached).
  const schema = settingsSchema(limits);
  const reply = fetcher.data?.thermostatId === id ? fetcher.data : serverReply;
  // A Save that failed upstream: on the card (the form's error) and, with JavaScript, as a toast too (the
  // fetcher's answer; rule save-failure-toast). The server's HTML (JavaScript off) has the card alone, and
  // nothing is flashed, so the next page shows no stale toast.
  const answered = fetcher.state === "idle" && fetcher.data?.thermostatId === id ? fetcher.data : undefined;
  usePageToast(hydrated ? saveFailureToast(answered) : null, answered);
  const [form, fields] = useForm({
    id: `settings-${id}`,
    lastResult: fetcher.state === "idle" ? reply?.lastResult : undefined,
    // The submission id is a field of the form: after a failed Save the form keeps the id it sent (with the
    // values), so the same Save again is the same submission (ADR 0010); a new render of the card has a new one.
    defaultValue: { ...formDefaults(item), [SUBMISSION_ID_FIELD]: submissionId },
    constraint: constraintOf(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onInput",
    shouldRevalidate: "onInput",
  });
  const current = {
    mode: state.mode,
    coolSetpointF: state.coolSetpointF,
    heatSetpointF: state.heatSetpointF,
  };
  const valid = canSave(limits, current, {
    mode: fields.mode.value,
    coolSetpointF: fields.coolSetpointF.value,
    heatSetpointF: fields.heatSetpointF.value,
  });
  const busy = fetcher.state !== "idle";
  // A second click before React disables Save (a fast double click) must not send a second request: the
  // server would answer it once (ADR 0010), but the browser would drop the first answer's navigation.
  const inFlight = useRef(false);
  useEffect(() => {
    if (fetcher.state === "idle") inFlight.current = false;
  }, [fetcher.state]);
  const formProps = getFormProps(form);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (inFlight.current) return event.preventDefault();
    formProps.onSubmit(event);
    if (!event.defaultPrevented) inFlight.current = true;
  };
  return (
    <fetcher.Form
      method="post"
      {...formProps}
      onSubmit={onSubmit}
      className="thermo-form"
      aria-label={`Settings of ${thermostat.deviceName}`}
    >
      <input type="hidden" name="thermostatId" value={id} />
      <input type="hidden" name="tab" value={tab} />
      <SubmissionIdInput value={sentId(fields[SUBMISSION_ID_FIELD].initialValue) ?? submissionId} />
      {form.errors?.length ? (
        <Alert tone="error">
          {form.errors.map((error, i) => (
            <Fragment key={i}>
              {i > 0 ? <br /> : null}
              {error}
            </Fragment>
          ))}
        </Alert>
      ) : null}
      <SelectField
        label="Mode"
        {...getSelectProps(fields.mode)}
        id={`${form.id}-mode`}
        errors={fields.mode.errors}
      >
        <ModeOptions state={state} />
      </SelectField>
      <div className="thermo-form-row">
        <Field
          label="Cool setpoint (°F)"
          {...getInputProps(fields.coolSetpointF, { type: "number" })}
          id={`${form.id}-cool`}
          step={1}
          inputMode="numeric"
          errors={fields.coolSetpointF.errors}
        />
        <Field
          label="Heat setpoint (°F)"
          {...getInputProps(fields.heatSetpointF, { type: "number" })}
          id={`${form.id}-heat`}
          step={1}
          inputMode="numeric"
          errors={fields.heatSetpointF.errors}
        />
      </div>
      <FormButtons disabled={!busy && hydrated && !valid} pending={busy} />
    </fetcher.Form>
  );
}
