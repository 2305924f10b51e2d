import { Link } from "@remix-run/react";

/** How many locations a summary card lists before the rest go behind "Show all N". */
export const SUMMARY_PREVIEW_COUNT = 5;

type Item = { id: number; label: string };

function Links({ items, to }: { items: Item[]; to: (id: number) => string }) {
  return items.map((i) => (
    <li key={i.id}>
      <Link to={to(i.id)}>{i.label}</Link>
    </li>
  ));
}

/**
 * A dashboard summary card: the count of every location it is about (`count`) and links to the first few
 * (`items`; a large client's others are in the table: "and N more"). Whole lines only: the first five are
 * listed, the others sit in a `<details>` "Show all N" (no JavaScript needed) instead of a list cut mid-line.
 */
export function SummaryCard({
  id,
  title,
  count,
  items,
  to,
}: {
  id: string;
  title: string;
  count: number;
  items: Item[];
  to: (id: number) => string;
}) {
  // A lone extra line is shown rather than hidden behind a control of its own size.
  const cut = items.length > SUMMARY_PREVIEW_COUNT + 1 ? SUMMARY_PREVIEW_COUNT : items.length;
  const rest = items.slice(cut);
  return (
    <section className="card summary-card" aria-labelledby={`${id}-title`} data-testid={`summary-${id}`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="summary-count">{count}</p>
      {items.length ? (
        <>
          <ul className="summary-list">
            <Links items={items.slice(0, cut)} to={to} />
          </ul>
          {rest.length ? (
            <details className="summary-more">
              <summary>{count === items.length ? `Show all ${count}` : `Show ${rest.length} more`}</summary>
              <ul className="summary-list" aria-label={`${title}: ${rest.length} more`}>
                <Links items={rest} to={to} />
              </ul>
            </details>
          ) : null}
          {count > items.length ? <p className="muted small">{`and ${count - items.length} more`}</p> : null}
        </>
      ) : (
        <p className="muted">None right now.</p>
      )}
    </section>
  );
}
