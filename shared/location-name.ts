/**
 * The one name of a location (rule location-name, docs/rules.md): what the pages head it with, its selector and
 * its dashboard row say ("Harbor Coffee Pike Place"), and what every export and email names it by. A nickname
 * ("Flagship") is shown beside it where a page says so, never in its place, so a spreadsheet or an email matches
 * the page it came from.
 */
export const locationName = (b: { name: string; nickname?: string | null }) => b.name;
