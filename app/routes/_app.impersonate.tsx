import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { CurrentSession } from "~/features/impersonation/components/current-session";
import { StartForm } from "~/features/impersonation/components/start-form";
import styles from "~/features/impersonation/impersonation.css";
import { ErrorState } from "~/ui/states";
import { withQuery } from "~/lib/query";
import { SubmitButton } from "~/ui/pending";
import { impersonateLoader, impersonateAction } from "~/features/impersonation/impersonation.server";

export const handle = { stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = impersonateLoader;

export const action = impersonateAction;

export default function Impersonate() {
  const { q, page, pages, clients, selected, impersonating } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { search } = useLocation();
  const pageHref = (p: number) => withQuery(search, { page: p });
  return (
    <div className="stack impersonate-page">
      <h1>Impersonate</h1>
      {impersonating ? <CurrentSession name={impersonating.name} demo={impersonating.demo} /> : null}
      <section className="card stack" aria-labelledby="choose-title">
        <h2 id="choose-title">Choose a client</h2>
        <Form method="get" role="search" className="impersonate-search">
          <label htmlFor="client-search">Search clients</label>
          <div className="row">
            <input id="client-search" className="input" type="search" name="q" defaultValue={q} key={q} />
            <SubmitButton className="btn btn-secondary">Search</SubmitButton>
          </div>
        </Form>
        {clients === null ? (
          <ErrorState title="Unable to fetch clients." />
        ) : (
          <StartForm
            clients={clients.items}
            page={page}
            pages={pages}
            pageHref={pageHref}
            selected={selected}
            lastResult={actionData?.lastResult}
          />
        )}
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Impersonate · EnergyOps" }];
