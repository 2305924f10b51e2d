import { Link } from "@remix-run/react";

/** A column's sort state, as `aria-sort` says it. */
export type AriaSort = "ascending" | "descending" | "none";

const ARROW: Record<AriaSort, string> = {
  ascending: "▲",
  descending: "▼",
  none: "↕",
};

/**
 * The header of a sortable column: a link to the URL of the next sort (so it works without JavaScript), the
 * state in `aria-sort`, a visible arrow and, for screen readers, ", sorted ascending" or ", sort".
 * The caller decides what the next sort is (`href`): tables differ in their defaults and cycles.
 */
export function SortableHeader({
  label,
  sort,
  href,
  className,
  replace,
}: {
  label: string;
  sort: AriaSort;
  href: string;
  className?: string;
  replace?: boolean;
}) {
  return (
    <th scope="col" aria-sort={sort} className={className}>
      {/* The same page in another order: its route is known already, nothing to discover. */}
      <Link className="sort-link" to={href} discover="none" preventScrollReset replace={replace}>
        {label}
        <span aria-hidden="true" className="sort-mark">
          {ARROW[sort]}
        </span>
        <span className="visually-hidden">{sort === "none" ? ", sort" : `, sorted ${sort}`}</span>
      </Link>
    </th>
  );
}

/** The `aria-sort` of a column: its direction when the table is sorted by it, "none" otherwise. */
export const ariaSortOf = (active: boolean, dir: "asc" | "desc"): AriaSort =>
  active ? (dir === "asc" ? "ascending" : "descending") : "none";
