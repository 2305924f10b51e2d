import { useState, type ChangeEvent } from "react";
import { SelectField } from "~/ui/field";
import { useHydrated } from "~/ui/use-hydrated";
import {
  CONNECT_MESSAGES,
  filterUtilities,
  soleUtilityMatch,
  utilityFilterStatus,
  type UtilityOption,
} from "../accounts";
import { SubmitButton } from "~/ui/pending";

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
  /**
   * Without JavaScript, search by POSTing form `formId` with this intent (the action re-renders the page with
   * the typed values and the query) instead of a separate GET form, so what was typed in that form is kept
   * and stays out of the URL.
   */
  searchIntent?: string;
  /**
   * A search that finds one utility selects it (the connect flow). Its caller renders that one `selected`
   * without JavaScript (`soleUtilityMatch` of the query); with it, typing selects it here.
   */
  selectSoleMatch?: boolean;
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
  searchIntent,
  selectSoleMatch = false,
}: Props) {
  const hydrated = useHydrated();
  const [q, setQ] = useState(query);
  const [value, setValue] = useState(selected);
  const found = filterUtilities(utilities, q, value);
  const { items } = found;
  const sole = selectSoleMatch ? soleUtilityMatch(utilities, q) : null;
  const status = utilityFilterStatus(found, sole && sole.arcadiaProviderId === value ? sole : null);
  const select = (providerId: string) => {
    setValue(providerId);
    onSelect?.(providerId);
  };
  const current = utilities.find((u) => u.arcadiaProviderId === value);
  // With JavaScript the hint follows the selection. Without it the hint is in the page, shown by CSS (`:has`) only
  // while a utility that needs e-bill is selected (app/features/accounts/accounts.css).
  const hint = hydrated && current?.requiresEbill ? CONNECT_MESSAGES.ebillHelper : undefined;
  const inForm = Boolean(searchIntent);
  const search = (
    <>
      {inForm
        ? null
        : Object.entries(keep).flatMap(([k, v]) =>
            (Array.isArray(v) ? v : [v]).map((x, i) => (
              <input key={`${k}-${i}`} type="hidden" name={k} value={x} />
            )),
          )}
      {value && !inForm ? <input type="hidden" name={name} value={value} /> : null}
      <div className="field">
        <label htmlFor="utility-q">Search utilities</label>
        <div className="row">
          <input
            id="utility-q"
            name="q"
            type="search"
            className="input"
            form={inForm ? formId : undefined}
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              const only = selectSoleMatch ? soleUtilityMatch(utilities, e.target.value) : null;
              if (only && only.arcadiaProviderId !== value) select(only.arcadiaProviderId);
            }}
            onKeyDown={(e) => {
              // With JavaScript the list filters as you type: Enter here must not submit the form it belongs to.
              if (inForm && hydrated && e.key === "Enter") e.preventDefault();
            }}
            aria-describedby="utility-q-status"
            autoComplete="off"
          />
          {hydrated ? null : inForm ? (
            <SubmitButton
              form={formId}
              name="intent"
              value={searchIntent}
              formNoValidate
              className="btn btn-secondary"
            >
              Search
            </SubmitButton>
          ) : (
            <SubmitButton className="btn btn-secondary">Search</SubmitButton>
          )}
        </div>
        <p
          id="utility-q-status"
          className="field-hint"
          aria-live="polite"
          data-testid="utility-filter-status"
        >
          {status}
        </p>
      </div>
    </>
  );
  return (
    <div className="utility-picker stack">
      {inForm ? (
        <div role="search" aria-label="Utility search" className="utility-search">
          {search}
        </div>
      ) : (
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
          {search}
        </form>
      )}
      <SelectField
        label="Utility"
        id="utility"
        name={name}
        form={formId}
        required
        value={value}
        onChange={(e: ChangeEvent<HTMLSelectElement>) => select(e.target.value)}
        errors={errors}
        hint={hint}
        {...selectProps}
      >
        <option value="">Select a utility</option>
        {items.map((u) => (
          <option
            key={u.arcadiaProviderId}
            value={u.arcadiaProviderId}
            data-ebill={u.requiresEbill ? "" : undefined}
          >
            {u.name}
          </option>
        ))}
      </SelectField>
      {hydrated ? null : (
        <p className="field-hint ebill-hint" data-testid="ebill-hint">
          {CONNECT_MESSAGES.ebillHelper}
        </p>
      )}
    </div>
  );
}
