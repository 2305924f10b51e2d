import { Form } from "@remix-run/react";
import { Pill, type Tone } from "~/ui/pill";
import { SubmitButton } from "~/ui/pending";
import { EmptyState, ErrorState } from "~/ui/states";
import type { QueueCard } from "../investigations";

const DUE_TONE: Record<QueueCard["due"]["state"], Tone> = {
  due: "info",
  due_today: "warning",
  late: "error",
};

/**
 * The staff's investigation queue (rule investigation-queue): one card per open investigation, oldest request
 * first, its promise in words, and one button that impersonates the client and opens the bill's flag, where the
 * close form is (a POST: starting an impersonation changes the session).
 */
export function InvestigationQueue({ error, cards }: { error: boolean; cards: QueueCard[] }) {
  return (
    <div className="stack investigations-page">
      <h1>Investigations</h1>
      <p className="muted">
        Bill flags clients asked us to investigate, across all clients, oldest request first. We respond
        within 1 business day (weekdays, in the location&apos;s time zone). Opening one starts impersonating
        its client and shows the flag on the location&apos;s Bill History, where you close it.
      </p>
      {error ? (
        <ErrorState title="Unable to fetch investigations." />
      ) : cards.length === 0 ? (
        <EmptyState title="No open investigations." />
      ) : (
        <>
          <p data-testid="investigations-count">
            {cards.length === 1 ? "1 open investigation" : `${cards.length} open investigations`}
          </p>
          <ol className="investigation-list">
            {cards.map((c) => (
              <li key={c.flagId}>
                <article
                  className="card stack investigation-card"
                  data-testid={`investigation-${c.flagId}`}
                  data-state={c.due.state}
                  aria-labelledby={`investigation-${c.flagId}-title`}
                >
                  <p className="investigation-due">
                    <Pill tone={DUE_TONE[c.due.state]}>{c.due.text}</Pill>
                  </p>
                  <h2 id={`investigation-${c.flagId}-title`} className="investigation-title">
                    {c.client.name} · {c.location}
                  </h2>
                  <dl className="investigation-facts">
                    <dt>Found</dt>
                    <dd>{c.found}</dd>
                    <dt>Bill</dt>
                    <dd>{c.bill}</dd>
                    <dt>At stake</dt>
                    <dd>{c.stake}</dd>
                    <dt>Asked</dt>
                    <dd>
                      {c.asked.by} asked on <time dateTime={c.asked.at}>{c.asked.when}</time>
                    </dd>
                  </dl>
                  {c.opens ? (
                    <Form method="post" action="/impersonate" className="investigation-open">
                      <input type="hidden" name="intent" value="start" />
                      <input type="hidden" name="clientId" value={c.client.id} />
                      <input type="hidden" name="reason" value={c.reason} />
                      <input type="hidden" name="redirectTo" value={c.flagHref} />
                      <SubmitButton
                        className="btn btn-primary"
                        aria-describedby={`investigation-${c.flagId}-title`}
                      >
                        Open to close
                      </SubmitButton>
                    </Form>
                  ) : (
                    <p className="muted">This client has no Bill History in this application.</p>
                  )}
                </article>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
