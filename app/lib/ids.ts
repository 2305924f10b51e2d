/**
 * Record ids read from a URL or a form: one rule for every page (rule record-id, docs/rules.md).
 *
 * An id is written as 1 to 12 digits and is a positive safe integer: no sign, no decimals, no exponent, no
 * spaces, no leading "+". Anything else cannot name a record, so it is not sent upstream.
 *
 * What a page does with a value that is not an id depends on where the value came from, and nowhere else:
 * - a route parameter (`/things/:id`): the page does not exist, `idParam` throws a 404 response (or what the
 *   route passes instead, e.g. the redirect home that the location pages answer);
 * - a query parameter or form field: `parseId` answers null and the page uses its default (no selection,
 *   page 1, …), or the action answers its own 400.
 */

export const ID_MAX_DIGITS = 12;
const ID = new RegExp(`^\\d{1,${ID_MAX_DIGITS}}$`);

/** The id in a query parameter, form field or route parameter, or null when it is not an id. */
export function parseId(value: unknown): number | null {
  if (typeof value !== "string" || !ID.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The id in a route parameter. Not an id: throws `otherwise()`, by default a 404 response (no body, the
 * route's error boundary renders the not-found page).
 */
export function idParam(value: string | undefined, otherwise: () => unknown = notFound): number {
  const id = parseId(value);
  if (id === null) throw otherwise();
  return id;
}

const notFound = () => new Response(null, { status: 404 });
