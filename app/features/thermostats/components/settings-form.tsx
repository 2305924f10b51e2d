import type { SubmissionResult } from "@conform-to/react";
import { useFetcher } from "@remix-run/react";
import { lazy, Suspense, useLayoutEffect, useRef, type MutableRefObject } from "react";
import { Field, SelectField } from "~/ui/field";
import { SubmissionIdInput } from "~/ui/submission-id";
import { limitsOf, modeDisplayName, type ThermostatInfo } from "../thermostats";
import { SubmitButton } from "~/ui/pending";

/** The live form (Conform, zod and the device's schema): a chunk of its own, loaded when a form first opens. */
export const loadLiveSettingsForm = () => import("./live-settings-form");
const LiveSettingsForm = lazy(() => loadLiveSettingsForm().then((m) => ({ default: m.LiveSettingsForm })));

/** The device's settings, or while a change is pending the values it asked for (the form resets when it finishes). */
export function formDefaults({ state, thermostatAction: action }: ThermostatInfo) {
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
  // What was typed into the closed form, handed to the live form when it takes over (see TypedValues).
  const typed = useRef<TypedValues | null>(null);
  if (!props.live) return <ClosedSettingsForm {...props} typed={typed} />;
  // Until the live form's chunk has loaded, the closed form (the same HTML) stays; on the server and when the
  // chunk is in, the live form renders at once.
  return (
    <Suspense fallback={<ClosedSettingsForm {...props} typed={typed} />}>
      <LiveSettingsForm {...props} typed={typed} />
    </Suspense>
  );
}

/** The fields a person types into, in both forms. */
const TYPED_FIELDS = ["mode", "coolSetpointF", "heatSetpointF"] as const;

/**
 * The closed form's fields as they are when the live form replaces it, and which of them had the focus. The
 * closed form is the server's HTML and works before its chunk arrives (the disclosure opens without React), so
 * a person may have typed into it; the live form is new elements, which would start from the device's values.
 */
export type TypedValues = {
  values: Partial<Record<(typeof TYPED_FIELDS)[number], string>>;
  focused?: string;
};

type FieldElement = HTMLInputElement | HTMLSelectElement;
const fieldOf = (form: HTMLFormElement, name: string) => {
  const el = form.elements.namedItem(name);
  return el instanceof HTMLInputElement || el instanceof HTMLSelectElement ? el : null;
};

function readTyped(form: HTMLFormElement): TypedValues {
  const values: TypedValues["values"] = {};
  for (const name of TYPED_FIELDS) {
    const el = fieldOf(form, name);
    if (el) values[name] = el.value;
  }
  const active = document.activeElement;
  const focused =
    (active instanceof HTMLInputElement || active instanceof HTMLSelectElement) && active.form === form
      ? active.name
      : undefined;
  return { values, focused };
}

/**
 * Puts what was typed into the live form's fields (the device's values are their defaults, so Cancel still
 * resets to them) and the focus back where it was, caret at the end. Returns the fields whose value changed:
 * the live form announces them as input, so Conform checks them as it checks typing.
 */
export function restoreTyped(form: HTMLFormElement, typed: TypedValues): FieldElement[] {
  const changed: FieldElement[] = [];
  for (const name of TYPED_FIELDS) {
    const el = fieldOf(form, name);
    const value = typed.values[name];
    if (!el || value === undefined || el.value === value) continue;
    el.value = value;
    changed.push(el);
  }
  const focus = typed.focused ? fieldOf(form, typed.focused) : null;
  if (focus && !form.contains(document.activeElement)) {
    focus.focus();
    if (focus instanceof HTMLInputElement) {
      // Setting the value again puts the caret after it (a number field has no selection API).
      const value = focus.value;
      focus.value = "";
      focus.value = value;
    }
  }
  return changed;
}

/** The form's HTML before it is opened: Conform's markup for the same defaults and the schema's constraints. */
function ClosedSettingsForm({
  item,
  tab,
  submissionId,
  typed,
}: {
  item: ThermostatInfo;
  tab: string;
  submissionId: string;
  typed: MutableRefObject<TypedValues | null>;
}) {
  const { thermostat, state } = item;
  const id = thermostat.id;
  const fetcher = useFetcher<SettingsReply>({ key: `settings-${id}` });
  const formId = `settings-${id}`;
  const limits = limitsOf(item);
  const defaults = formDefaults(item);
  const setpoint = { form: formId, required: true, min: limits.minSetpointF, max: limits.maxSetpointF };
  const formRef = useRef<HTMLFormElement>(null);
  useLayoutEffect(() => {
    const form = formRef.current;
    // This form may be the fallback that replaced the closed form while the live form's chunk loads: what was
    // typed there shows here, and is what its clean-up hands on (not the device's values it starts from).
    if (form && typed.current) restoreTyped(form, typed.current);
    // Runs as the live form replaces this one, while these fields are still in the page.
    return () => {
      if (form?.isConnected) typed.current = readTyped(form);
    };
  }, [typed]);
  return (
    <fetcher.Form
      ref={formRef}
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

export function ModeOptions({ state }: { state: ThermostatInfo["state"] }) {
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

export function FormButtons({ disabled, pending }: { disabled: boolean; pending: boolean }) {
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
