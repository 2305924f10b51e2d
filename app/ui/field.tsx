import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";

type Common = { label: ReactNode; errors?: string[] | null; hint?: ReactNode; id: string };

/**
 * A labelled input with its error list tied by aria-describedby (and aria-invalid when in error). An invalid
 * field renders `autofocus`, so after a failed submission without JavaScript the first invalid field has focus.
 */
export function Field({
  label,
  errors,
  hint,
  id,
  className,
  autoFocus,
  // The field owns its description and invalid state: a form library's own ids (Conform's getInputProps)
  // point to elements that do not exist here, so they never override these.
  "aria-describedby": _ignoredDescribedBy,
  "aria-invalid": _ignoredInvalid,
  ...rest
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = Boolean(errors?.length);
  const describedBy = [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        {...rest}
        id={id}
        className={`input ${className ?? ""}`}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoFocus={autoFocus || invalid}
      />
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

export function SelectField({
  label,
  errors,
  hint,
  id,
  children,
  ...select
}: Common & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  const errorId = `${id}-error`;
  const invalid = Boolean(errors?.length);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="select"
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
        autoFocus={select.autoFocus || invalid}
        {...select}
      >
        {children}
      </select>
      {hint ? <p className="field-hint">{hint}</p> : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

/** A field's (or a form's) error messages; `alert` announces a form-level message when it appears. */
export function FieldErrors({
  id,
  errors,
  alert,
}: {
  id?: string;
  errors?: string[] | null;
  alert?: boolean;
}) {
  if (!errors?.length) return null;
  return (
    <p className="field-error" id={id} role={alert ? "alert" : undefined}>
      {errors.join(" ")}
    </p>
  );
}
