import type { Building } from "./locations.server";

/** "1912 Pike Pl, Seattle, WA 98101" */
export function formatAddress(a: Building["address"]) {
  return [a.addressLine1, a.addressLine2, `${a.city}, ${a.state} ${a.zipcode}`].filter(Boolean).join(", ");
}

/** The street number of an address line ("1912 Pike Pl" → 1912); none sorts last. */
export function streetNumber(line: string) {
  const m = /^\s*(\d+)/.exec(line);
  return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
}

/** The number of a location code ("HCC-007" → 7); none sorts last. */
export function codeNumber(code: string | null | undefined) {
  const m = /(\d+)(?!.*\d)/.exec(code ?? "");
  return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
}

/** The label a user sees for a location: staff see its code; everyone else its name. */
export function locationLabel(b: Building, isStaff: boolean) {
  return isStaff && b.code ? b.code : b.name;
}

/**
 * The selector's order (spec part 1 §2): staff see codes sorted by code number; everyone else sees names
 * sorted by street number, then name.
 */
export function sortLocations(list: Building[], isStaff: boolean): Building[] {
  return [...list].sort((a, b) =>
    isStaff
      ? codeNumber(a.code) - codeNumber(b.code) || String(a.code).localeCompare(String(b.code))
      : streetNumber(a.address.addressLine1) - streetNumber(b.address.addressLine1) || a.name.localeCompare(b.name),
  );
}
