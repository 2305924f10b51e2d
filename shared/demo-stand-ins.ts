/**
 * Demo mode's stand-ins (rule demo-mode-anonymisation, docs/rules.md): the names, codes, addresses, people,
 * utilities, account numbers and usernames that replace real ones while an impersonating staff member has demo
 * mode on. Shared by the web, which rewrites every upstream answer with them
 * (`app/server/upstream/demo-mode.ts`), and by the reference api, which writes them into the files it streams
 * straight to the browser (the CSV export and the bill PDF): the same utility or account must show the same stand-in on a page and in a download
 * (ADR 0020). Pure: imports nothing of `app/` or `api/`.
 */

export const DEMO_CLIENT_NAME = "Demo Client";

export const DEMO_ADDRESSES = [
  { addressLine1: "11 Wall St", addressLine2: null, city: "New York", state: "NY", zipcode: "10005" },
  { addressLine1: "200 Park Ave S", addressLine2: null, city: "New York", state: "NY", zipcode: "10003" },
  {
    addressLine1: "30 Rockefeller Plaza",
    addressLine2: null,
    city: "New York",
    state: "NY",
    zipcode: "10112",
  },
  { addressLine1: "1 Centre St", addressLine2: null, city: "New York", state: "NY", zipcode: "10007" },
  { addressLine1: "405 Lexington Ave", addressLine2: null, city: "New York", state: "NY", zipcode: "10174" },
] as const;

export const demoName = (buildingId: number) => `Demo Location ${buildingId}`;
/** A person of the client (a team member): no real name or email in demo mode, the same one every time. */
export const demoPerson = (userId: number) => ({
  firstName: "Demo",
  lastName: `User ${userId}`,
  email: `demo-user-${userId}@example.com`,
});
export const demoCode = (buildingId: number) => `DEMO-${buildingId}`;
export const demoAddress = (buildingId: number) =>
  DEMO_ADDRESSES[Math.abs(Math.trunc(buildingId)) % DEMO_ADDRESSES.length];
export const demoAddressLine = (buildingId: number) => {
  const a = demoAddress(buildingId);
  return `${a.addressLine1}, ${a.city}, ${a.state} ${a.zipcode}`;
};

/**
 * A short, stable number for a value (FNV-1a, 32 bits). Utility names, account numbers and usernames often come
 * without their id (a bill names its account by number, a credential its utility by name), so their demo
 * stand-ins are chosen by the real value: the same utility or account shows the same stand-in on every page.
 */
function stableHash(value: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A utility's demo name: "Demo Utility" and a letter pair (AA to ZZ) chosen by the real name. */
export const demoUtilityName = (realName: string) => {
  const n = stableHash(realName.trim().toLowerCase()) % 676;
  return `Demo Utility ${String.fromCharCode(65 + Math.floor(n / 26), 65 + (n % 26))}`;
};
/** An account number's demo stand-in, 8 digits chosen by the real number (spaces and dashes ignored). */
export const demoAccountNumber = (real: string) =>
  `DEMO-${String(stableHash(real.replace(/[\s-]/g, "")) % 100_000_000).padStart(8, "0")}`;
/** A stored utility credential's username in demo mode, chosen by the real one. */
export const demoUsername = (real: string) =>
  `demo-login-${String(stableHash(real) % 10_000).padStart(4, "0")}`;

/**
 * Utility provider ids. A real one ("prov_comed") names the utility, and so the region, as plainly as its name
 * does, and it reaches the page in links, form values and hydration data. Its stand-in is chosen by the real
 * id like the names above, but it must also find its way back: the connect flow sends the id the page holds
 * upstream (a `?utility=` link, a form's hidden field), and upstream only knows real ids. The stand-in is
 * the full 32-bit hash, so two ids of a catalogue of hundreds practically never share one, and the way back
 * is a look-up in the (public) catalogue of real ids: `realProviderId`.
 */
const DEMO_PROVIDER_ID = /^prov_demo_[0-9a-z]{7}$/;
export const isDemoProviderId = (id: string) => DEMO_PROVIDER_ID.test(id);
/** A provider id's demo stand-in, "prov_demo_" and 7 base-36 characters; a stand-in is its own stand-in. */
export const demoProviderId = (real: string) =>
  isDemoProviderId(real) ? real : `prov_demo_${stableHash(real).toString(36).padStart(7, "0")}`;
/**
 * The real provider id behind `id`, given every real id upstream knows. An id that is not a stand-in is
 * returned as it is (upstream decides whether it knows it); a stand-in of none of `realIds` (or, should it
 * ever happen, of two) gives null.
 */
export function realProviderId(id: string, realIds: Iterable<string>): string | null {
  if (!isDemoProviderId(id)) return id;
  let found: string | null = null;
  for (const real of realIds) {
    if (demoProviderId(real) !== id) continue;
    if (found !== null && found !== real) return null;
    found = real;
  }
  return found;
}
