import { Link } from "@remix-run/react";

/**
 * Previous and Next as plain links (no script needed) and where the reader is ("Page 2 of 4"), for a list
 * paged on the server. Render it only when there is more than one page.
 */
export function Pager({
  page,
  pages,
  label,
  status,
  href,
  testId,
}: {
  page: number;
  pages: number;
  /** The navigation landmark's name, e.g. "Pages of locations". */
  label: string;
  /** What the reader sees between the links, e.g. "Page 2 of 4 · 300 locations". */
  status: string;
  href: (page: number) => string;
  testId: string;
}) {
  return (
    <nav className="pager" aria-label={label} data-testid={testId}>
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className="btn btn-secondary btn-small">
          Previous<span className="visually-hidden"> page</span>
        </Link>
      ) : (
        <span className="btn btn-secondary btn-small" aria-disabled="true">
          Previous<span className="visually-hidden"> page</span>
        </span>
      )}{" "}
      {/* Spaces between the three: a text browser would run them together (docs/text-browsers.md). */}
      <span data-testid={`${testId}-status`}>{status}</span>{" "}
      {page < pages ? (
        <Link to={href(page + 1)} rel="next" className="btn btn-secondary btn-small">
          Next<span className="visually-hidden"> page</span>
        </Link>
      ) : (
        <span className="btn btn-secondary btn-small" aria-disabled="true">
          Next<span className="visually-hidden"> page</span>
        </span>
      )}
    </nav>
  );
}

/** `?page=` as a 1-based page: anything else (missing, 0, negative, not a whole number) is the first page. */
export function pageParam(params: URLSearchParams, name = "page") {
  const page = Number(params.get(name));
  return Number.isSafeInteger(page) && page > 1 ? page : 1;
}

/** Appends or replaces `name=page` in a URL's query (page 1 leaves it out). */
export function withPage(search: URLSearchParams, page: number, name = "page") {
  const next = new URLSearchParams(search);
  if (page > 1) next.set(name, String(page));
  else next.delete(name);
  const q = next.toString();
  return q ? `?${q}` : "";
}
