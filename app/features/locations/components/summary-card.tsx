import { AppLink } from "~/ui/app-link";

/** A dashboard summary card: a count of locations and a link to each one's page. */
export function SummaryCard({
  id,
  title,
  items,
  to,
}: {
  id: string;
  title: string;
  items: { id: number; label: string }[];
  to: (id: number) => string;
}) {
  return (
    <section className="card summary-card" aria-labelledby={`${id}-title`} data-testid={`summary-${id}`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="summary-count">{items.length}</p>
      {items.length ? (
        <ul className="summary-list">
          {items.map((i) => (
            <li key={i.id}>
              <AppLink to={to(i.id)}>{i.label}</AppLink>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None right now.</p>
      )}
    </section>
  );
}
