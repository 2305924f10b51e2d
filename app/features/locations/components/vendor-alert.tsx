import { Form, useLocation } from "@remix-run/react";
import { SubmitButton } from "~/ui/pending";

/** The device vendor's service alert, with a Dismiss button that posts to the dashboard's action. */
export function VendorAlert({ message }: { message: string }) {
  const { pathname, search } = useLocation();
  return (
    <div className="vendor-alert" role="status" data-testid="vendor-alert">
      <p>{message}</p>
      <Form method="post" preventScrollReset>
        <input type="hidden" name="redirectTo" value={`${pathname}${search}`} />
        <SubmitButton name="intent" value="dismiss-vendor-alert" className="btn btn-ghost btn-small">
          Dismiss
        </SubmitButton>
      </Form>
    </div>
  );
}
