import { Form } from "@remix-run/react";
import { SubmitButton } from "~/ui/pending";

/** The impersonate page's "Current session": who is impersonated, demo mode, and the buttons to change both. */
export function CurrentSession({ name, demo }: { name: string; demo: boolean }) {
  return (
    <section className="card stack" aria-labelledby="current-title">
      <h2 id="current-title">Current session</h2>
      <p>
        You are impersonating <strong>{name}</strong>. Demo mode is {demo ? "on" : "off"}.
      </p>
      <Form method="post" className="row">
        <input type="hidden" name="redirectTo" value="/impersonate" />
        <SubmitButton name="intent" value={demo ? "demo-off" : "demo-on"} className="btn btn-secondary">
          {demo ? "Turn off demo mode" : "Turn on demo mode"}
        </SubmitButton>
        <SubmitButton name="intent" value="stop" className="btn">
          Stop impersonating
        </SubmitButton>
      </Form>
    </section>
  );
}
