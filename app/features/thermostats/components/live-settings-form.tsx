import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useFetcher } from "@remix-run/react";
import { Fragment, useEffect, useLayoutEffect, useRef, type FormEvent, type MutableRefObject } from "react";
import { Field, SelectField } from "~/ui/field";
import { Alert } from "~/ui/states";
import { SUBMISSION_ID_FIELD, SubmissionIdInput } from "~/ui/submission-id";
import { useHydrated } from "~/ui/use-hydrated";
import { usePageToast } from "~/ui/toasts";
import { limitsOf, saveFailureToast, type ThermostatInfo } from "../thermostats";
import { canSave, settingsSchema } from "../settings-schema";
import {
  FormButtons,
  formDefaults,
  ModeOptions,
  restoreTyped,
  type SettingsReply,
  type TypedValues,
} from "./settings-form";

/**
 * The setting form once opened (or to show a reply): Conform with the device's Zod schema, validated as you
 * type; the server validates it always (components/settings-form.tsx renders it, and the closed form before).
 */
const constraints = new WeakMap<object, ReturnType<typeof getZodConstraint>>();
function constraintOf(schema: ReturnType<typeof settingsSchema>) {
  let c = constraints.get(schema);
  if (!c) constraints.set(schema, (c = getZodConstraint(schema)));
  return c;
}

/** The submission id a failed Save sent (the form's values come back from its reply), if any. */
const sentId = (value: unknown) => (typeof value === "string" && value ? value : undefined);

export function LiveSettingsForm({
  item,
  tab,
  serverReply,
  submissionId,
  typed,
}: {
  item: ThermostatInfo;
  tab: string;
  serverReply?: SettingsReply;
  submissionId: string;
  /** What was typed into the closed form this one replaces (components/settings-form.tsx). */
  typed?: MutableRefObject<TypedValues | null>;
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
  // Taking over from the closed form: what was typed there stays (before the browser paints), and Conform
  // checks it as typing (its listeners are on the document once useForm's layout effect has run).
  const handedOver = useRef<HTMLElement[]>([]);
  useLayoutEffect(() => {
    const values = typed?.current;
    const element = document.getElementById(form.id);
    if (!typed || !values || !(element instanceof HTMLFormElement)) return;
    typed.current = null;
    handedOver.current = restoreTyped(element, values);
  }, [typed, form.id]);
  useEffect(() => {
    for (const el of handedOver.current.splice(0)) el.dispatchEvent(new Event("input", { bubbles: true }));
  }, []);
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
