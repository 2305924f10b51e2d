import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { Field, FieldErrors } from "~/ui/field";
import { useHydrated } from "~/ui/use-hydrated";
import { HONEYPOT_FIELD, PROSPECT_MESSAGES, prospectSchema } from "../prospect";

/** The first step: who to send the results to and which utility serves them (with the honeypot field). */
export function StartStep({
  action,
  q,
  renderPicker,
  lastResult,
}: {
  action: string;
  q: string;
  /**
   * The utility picker, drawn by the route with the accounts area's component (a feature does not import
   * another feature's components); this step gives it its form, the selection and the field's errors.
   */
  renderPicker: (slot: {
    formId: string;
    query: string;
    selected: string;
    onSelect: (providerId: string) => void;
    errors: string[] | undefined;
  }) => ReactNode;
  lastResult?: SubmissionResult<string[]>;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "prospect-start",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: prospectSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [provider, setProvider] = useState(
    typeof fields.arcadiaProvider.initialValue === "string" ? fields.arcadiaProvider.initialValue : "",
  );
  const valid = prospectSchema.safeParse({
    firstName: fields.firstName.value ?? "",
    emailAddress: fields.emailAddress.value ?? "",
    companyName: fields.companyName.value ?? "",
    arcadiaProvider: provider,
  }).success;
  return (
    <div className="card stack">
      <p>
        Tell us where to send your results and which utility serves you. We check your bills for errors, rate
        changes and savings.
      </p>
      {renderPicker({
        formId: form.id,
        query: q,
        selected: provider,
        onSelect: setProvider,
        errors: fields.arcadiaProvider.errors,
      })}
      <Form method="post" action={action} {...getFormProps(form)} noValidate={hydrated} className="stack">
        {/* The query this page was searched with: Enter in another field then continues (effectiveIntent). */}
        <input type="hidden" name="searched" value={q} />
        <Field
          label="First name"
          {...getInputProps(fields.firstName, { type: "text" })}
          id="firstName"
          autoComplete="given-name"
          required
          errors={fields.firstName.errors}
        />
        <Field
          label="Email address"
          {...getInputProps(fields.emailAddress, { type: "email" })}
          id="emailAddress"
          autoComplete="email"
          required
          errors={fields.emailAddress.errors}
        />
        <Field
          label="Company name"
          {...getInputProps(fields.companyName, { type: "text" })}
          id="companyName"
          autoComplete="organization"
          required
          errors={fields.companyName.errors}
        />
        <label className="checkbox" htmlFor="rateQuote">
          <input {...getInputProps(fields.rateQuote, { type: "checkbox", value: "on" })} id="rateQuote" />
          <span>{PROSPECT_MESSAGES.rateQuote}</span>
        </label>
        <label className="checkbox" htmlFor="communicationsConsent">
          <input
            {...getInputProps(fields.communicationsConsent, { type: "checkbox", value: "on" })}
            id="communicationsConsent"
          />
          <span>{PROSPECT_MESSAGES.communicationsConsent}</span>
        </label>
        <div className="honeypot" aria-hidden="true">
          <label htmlFor={HONEYPOT_FIELD}>Leave this field empty</label>
          <input
            id={HONEYPOT_FIELD}
            name={HONEYPOT_FIELD}
            type="text"
            tabIndex={-1}
            autoComplete="off"
            defaultValue=""
          />
        </div>
        <FieldErrors id={form.errorId} errors={form.errors} alert />
        <div className="row">
          <button
            type="submit"
            name="intent"
            value="start"
            className="btn"
            disabled={hydrated && (!valid || !form.dirty || navigation.state === "submitting")}
          >
            Continue
          </button>
        </div>
      </Form>
    </div>
  );
}
