import { AppLink } from "~/ui/app-link";

/** How many locations a summary card lists before the rest go behind "Show all N". */
export const SUMMARY_PREVIEW_COUNT = 5;

type Item = { id: number; label: string };

function Links({ items, to }: { items: Item[]; to: (id: number) => string }) {
  return items.map((i) => (
    <li key={i.id}>
      <AppLink to={to(i.id)}>{i.label}</AppLink>
    </li>
  ));
}

/**
 * A dashboard summary card: a count of locations and a link to each one's page. Whole lines only: the first
 * few are listed, the others sit in a `<details>` "Show all N" (no JavaScript needed) instead of a list cut
 * mid-line by a fixed height.
 */
export function SummaryCard({
  id,
  title,
  items,
  to,
}: {
  id: string;
  title: string;
  items: Item[];
  to: (id: number) => string;
}) {
  // A lone extra line is shown rather than hidden behind a control of its own size.
  const cut = items.length > SUMMARY_PREVIEW_COUNT + 1 ? SUMMARY_PREVIEW_COUNT : items.length;
  const rest = items.slice(cut);
  return (
    <section className="card summary-card" aria-labelledby={`${id}-title`} data-testid={`summary-${id}`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="summary-count">{items.length}</p>
      {items.length ? (
        <>
          <ul className="summary-list">
            <Links items={items.slice(0, cut)} to={to} />
          </ul>
          {rest.length ? (
            <details className="summary-more">
              <summary>Show all {items.length}</summary>
              <ul className="summary-list" aria-label={`${title}: ${rest.length} more`}>
                <Links items={rest} to={to} />
              </ul>
            </details>
          ) : null}
        </>
      ) : (
        <p className="muted">None right now.</p>
      )}
    </section>
  );
}
