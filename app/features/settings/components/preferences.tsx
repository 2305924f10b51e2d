import { useFetcher } from "@remix-run/react";
import { ErrorState } from "~/ui/states";
import type { PreferenceToggleView } from "../settings";
import { SubmitButton } from "~/ui/pending";

/** The preferences tab: the four email switches, or the error state when they could not be read. */
export function Preferences({ toggles }: { toggles: PreferenceToggleView[] | null }) {
  if (!toggles) return <ErrorState title="An error has occurred, please try again." />;
  return (
    <section className="card stack" aria-labelledby="prefs-heading">
      <h2 id="prefs-heading">Email notifications</h2>
      <p className="muted">Choose which emails you receive. Delivery is by email only.</p>
      <ul className="toggle-list">
        {toggles.map((t) => (
          <li key={t.type}>
            <PreferenceToggle {...t} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One switch: a form of its own (a submit button without JavaScript), shown in its new state at once. */
function PreferenceToggle({ type, label, enabled }: PreferenceToggleView) {
  const fetcher = useFetcher();
  const optimistic = fetcher.formData ? fetcher.formData.get("enabled") === "true" : enabled;
  return (
    <fetcher.Form method="post" action="/settings">
      <input type="hidden" name="intent" value="preference" />
      <input type="hidden" name="type" value={type} />
      <SubmitButton
        role="switch"
        aria-checked={optimistic}
        name="enabled"
        value={String(!optimistic)}
        className="switch"
        data-testid={`pref-${type}`}
      >
        <span>{label}</span>
        <span className="row">
          <span className="switch-state" aria-hidden="true">
            {optimistic ? "On" : "Off"}
          </span>
          <span className="switch-track" aria-hidden="true" />
        </span>
      </SubmitButton>
    </fetcher.Form>
  );
}
