import { AppLink } from "~/ui/app-link";

/**
 * A dashboard summary card: the count of every location it is about and a link to the first few (`items`;
 * the rest are in the table), then "and N more".
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
  items: { id: number; label: string }[];
  to: (id: number) => string;
}) {
  return (
    <section className="card summary-card" aria-labelledby={`${id}-title`} data-testid={`summary-${id}`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="summary-count">{count}</p>
      {items.length ? (
        <ul className="summary-list">
          {items.map((i) => (
            <li key={i.id}>
              <AppLink to={to(i.id)}>{i.label}</AppLink>
            </li>
          ))}
        </ul>
      ) : null}
      {count > items.length && items.length ? (
        <p className="muted small">{`and ${count - items.length} more`}</p>
      ) : null}
      {count === 0 ? <p className="muted">None right now.</p> : null}
    </section>
  );
}
