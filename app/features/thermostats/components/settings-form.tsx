import type { SubmissionResult } from "@conform-to/react";
import { useFetcher } from "@remix-run/react";
import { lazy, Suspense } from "react";
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
  if (!props.live) return <ClosedSettingsForm {...props} />;
  // Until the live form's chunk has loaded, the closed form (the same HTML) stays; on the server and when the
  // chunk is in, the live form renders at once.
  return (
    <Suspense fallback={<ClosedSettingsForm {...props} />}>
      <LiveSettingsForm {...props} />
    </Suspense>
  );
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
