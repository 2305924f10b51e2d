import { useState, type ChangeEvent } from "react";
import { SelectField } from "~/ui/field";
import { useHydrated } from "~/ui/use-hydrated";
import { CONNECT_MESSAGES, filterUtilities, type UtilityOption } from "../accounts";

type Props = {
  utilities: UtilityOption[];
  /** The search text from the URL (`q`), filtered on the server without JavaScript. */
  query: string;
  /** The selected provider id. */
  selected: string;
  /** The id of the form the select belongs to (it sits outside it, after the search form). */
  formId: string;
  /** Where the search form GETs, and the query parameters it keeps. */
  searchAction: string;
  keep?: Record<string, string | string[]>;
  errors?: string[] | null;
  onSelect?: (providerId: string) => void;
  selectProps?: Record<string, unknown>;
  /** The select's field name (the connect flow: `utility`; the prospect form: `arcadiaProvider`). */
  name?: string;
};

/**
 * The utility select that filters only after 3 typed characters. Without JavaScript the search box is a GET
 * form filtered on the server; with it the list filters as you type. The select belongs to `formId`.
 */
export function UtilityPicker({
  utilities,
  query,
  selected,
  formId,
  searchAction,
  keep = {},
  errors,
  onSelect,
  selectProps,
  name = "utility",
}: Props) {
  const hydrated = useHydrated();
  const [q, setQ] = useState(query);
  const [value, setValue] = useState(selected);
  const { items, message } = filterUtilities(utilities, q, value);
  const current = utilities.find((u) => u.arcadiaProviderId === value);
  const hint = current?.requiresEbill ? CONNECT_MESSAGES.ebillHelper : undefined;
  return (
    <div className="utility-picker stack">
      <form
        method="get"
        action={searchAction}
        role="search"
        aria-label="Utility search"
        className="utility-search"
        onSubmit={(e) => {
          if (hydrated) e.preventDefault();
        }}
      >
        {Object.entries(keep).flatMap(([k, v]) =>
          (Array.isArray(v) ? v : [v]).map((x, i) => (
            <input key={`${k}-${i}`} type="hidden" name={k} value={x} />
          )),
        )}
        {value ? <input type="hidden" name={name} value={value} /> : null}
        <div className="field">
          <label htmlFor="utility-q">Search utilities</label>
          <div className="row">
            <input
              id="utility-q"
              name="q"
              type="search"
              className="input"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              aria-describedby="utility-q-status"
              autoComplete="off"
            />
            {hydrated ? null : (
              <button type="submit" className="btn btn-secondary">
                Search
              </button>
            )}
          </div>
          <p
            id="utility-q-status"
            className="field-hint"
            aria-live="polite"
            data-testid="utility-filter-status"
          >
            {message ?? `${items.length} ${items.length === 1 ? "utility" : "utilities"} found`}
          </p>
        </div>
      </form>
      <SelectField
        label="Utility"
        id="utility"
        name={name}
        form={formId}
        required
        value={value}
        onChange={(e: ChangeEvent<HTMLSelectElement>) => {
          setValue(e.target.value);
          onSelect?.(e.target.value);
        }}
        errors={errors}
        hint={hint}
        {...selectProps}
      >
        <option value="">Select a utility</option>
        {items.map((u) => (
          <option key={u.arcadiaProviderId} value={u.arcadiaProviderId}>
            {u.name}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
