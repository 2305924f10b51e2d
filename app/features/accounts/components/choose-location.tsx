import { Form } from "@remix-run/react";
import { FieldErrors } from "~/ui/field";
import { SubmitButton } from "~/ui/pending";

/**
 * "Choose location" beside an account not yet assigned to a location (rule account-choose-location): a select of
 * the locations the person sees and a button, a plain POST form (works without JavaScript).
 */
export function ChooseLocation({
  account,
  locations,
  back,
  error,
}: {
  account: { id: number; number: string };
  locations: { id: number; label: string }[];
  back: string;
  error?: string | null;
}) {
  const id = `choose-location-${account.id}`;
  return (
    <Form method="post" className="row choose-location" preventScrollReset>
      <input type="hidden" name="intent" value="choose-location" />
      <input type="hidden" name="account" value={account.id} />
      <input type="hidden" name="back" value={back} />
      <label htmlFor={id} className="visually-hidden">
        Location for account {account.number}
      </label>
      <select
        id={id}
        name="building"
        className="select"
        required
        defaultValue=""
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <option value="" disabled>
          Select a location
        </option>
        {locations.map((l) => (
          <option key={l.id} value={l.id}>
            {l.label}
          </option>
        ))}
      </select>
      <SubmitButton className="btn btn-small">Choose location</SubmitButton>
      <FieldErrors id={`${id}-error`} errors={error ? [error] : null} />
    </Form>
  );
}
