/**
 * One page of a list paged on the server: `page` clamped to 1..pages (an empty list is one empty page).
 * The dashboard, the accounts page and the compliance report's thermostat table page their rows with it.
 */
export function pageOf<T>(rows: T[], page: number, size: number) {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(1, page), pages);
  return {
    rows: rows.slice((current - 1) * size, current * size),
    page: current,
    pages,
    matched: rows.length,
  };
}
