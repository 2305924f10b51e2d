import {
  DEMO_CLIENT_NAME,
  demoAccountNumber,
  demoAddress,
  demoAddressLine,
  demoCode,
  demoName,
  demoPerson,
  demoProviderId,
  demoUsername,
  demoUtilityName,
  isDemoProviderId,
  realProviderId,
} from "../../../shared/demo-stand-ins";

/**
 * Demo mode (rule demo-mode-anonymisation, docs/rules.md): while impersonating staff have demo mode on, the client name becomes
 * 'Demo Client' and every location gets a generic name and one of 5 sample New York addresses, chosen by
 * building id so the same location always looks the same. Utility names, account numbers and the usernames of
 * stored utility credentials are replaced too: a real utility (ComEd, Seattle City Light) or a username like
 * "harbor.chicago" would tell where the sample New York addresses really are; so would a utility provider id
 * ("prov_comed"), which becomes a stand-in ("prov_demo_…") in every field and in the connect flow's links,
 * and is restored before it goes back upstream (`restoreProviderIds`). One pure function (its stand-ins are
 * `shared/demo-stand-ins.ts`, which the api's downloads use too), applied on
 * the server to every upstream answer, so no real name or address reaches the browser. The rule is documented
 * in docs/api/locations.md: any answer carrying a building's name or address must carry the building's id.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown) =>
  typeof v === "number" && Number.isFinite(v)
    ? v
    : typeof v === "string" && /^\d+$/.test(v)
      ? Number(v)
      : null;

/** Reads a key in camelCase or snake_case (answers with x-no-convert stay snake_case). */
function pick(o: Obj, camel: string): [string, unknown] | null {
  if (camel in o) return [camel, o[camel]];
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  if (snake in o) return [snake, o[snake]];
  return null;
}

function replaceAddressObject(addr: Obj, buildingId: number): Obj {
  const a = demoAddress(buildingId);
  const out: Obj = { ...addr };
  const set = (camel: string, value: unknown) => {
    const hit = pick(addr, camel);
    if (hit) out[hit[0]] = value;
  };
  set("addressLine1", a.addressLine1);
  set("addressLine2", a.addressLine2);
  set("city", a.city);
  set("state", a.state);
  set("zipcode", a.zipcode);
  set("zip", a.zipcode);
  return out;
}

/**
 * The user object (GET /user) passes through untouched: the web writes it into the session with
 * `anonymiseUser` applied while demo mode is on, and needs the real answer to restore the name when it ends.
 */
const isUserObject = (o: Obj) => "canImpersonate" in o || "can_impersonate" in o;
const isClientObject = (o: Obj) => ("clientType" in o || "client_type" in o) && typeof o.name === "string";
/** A person other than the session user: an id, an email and a first or last name (a team member). */
const isPersonObject = (o: Obj) =>
  num(o.id) !== null &&
  typeof o.email === "string" &&
  (pick(o, "firstName") !== null || pick(o, "lastName") !== null);
/** Keys under which an object with an id and a name is a building even without its address. */
const BUILDING_KEY = /^(building|location)s?$/i;
const isBuildingObject = (o: Obj, key: string | null) =>
  num(o.id) !== null &&
  (isObj(pick(o, "address")?.[1]) ||
    pick(o, "addressLine1") !== null ||
    (key !== null && BUILDING_KEY.test(key) && typeof o.name === "string"));
/** A utility: its catalogue entry (a provider id beside the name) or a bill's `utility: {id, name}`. */
const isUtilityObject = (o: Obj, key: string | null) =>
  (pick(o, "arcadiaProviderId") !== null || key === "utility") && typeof o.name === "string";
/** A utility account: its `number` is the account number (`accountNumber` is replaced wherever it is). */
const isAccountObject = (o: Obj, key: string | null) =>
  typeof o.number === "string" &&
  ((key !== null && /accounts?$/i.test(key)) ||
    pick(o, "accountNumber") !== null ||
    pick(o, "arcadiaAccountStatus") !== null ||
    pick(o, "utilityDisplayName") !== null);

/**
 * Fields that hold a utility's name, an account number or a credential's username, wherever they are. A
 * bill's supplier is its utility unless a third party supplies it, so suppliers get utility stand-ins: the
 * same utility reads the same in both columns.
 */
const UTILITY_NAME_FIELDS = ["utilityName", "utilityDisplayName", "supplier", "previousSupplier"];
const ACCOUNT_NUMBER_FIELDS = ["accountNumber"];
/** Keys that hold a provider id: `arcadiaProviderId`, an account's `utilityArcadiaProviderId`, either casing. */
const PROVIDER_ID_KEY = /arcadia_?provider_?id$/i;
/** The web's own connect flow, where a credential's reconnect link may point (`?utility=<provider id>`). */
const CONNECT_FLOW_PATH = /(^|\/)authorize-arcadia$/;

/**
 * A link into the connect flow with its provider id replaced. Only that flow's links are rewritten: the
 * stand-in is read back by the web, whereas another site (a provider's hosted page) would not know it.
 */
function anonymiseConnectLink(url: string): string {
  if (!url.includes("authorize-arcadia")) return url;
  const relative = url.startsWith("/");
  let u: URL;
  try {
    u = new URL(url, "http://relative.invalid");
  } catch {
    return url;
  }
  const utility = u.searchParams.get("utility");
  if (!CONNECT_FLOW_PATH.test(u.pathname) || !utility) return url;
  u.searchParams.set("utility", demoProviderId(utility));
  return relative ? `${u.pathname}${u.search}${u.hash}` : u.toString();
}

function anonymiseAccountFields(value: Obj, key: string | null, out: Obj) {
  const replace = (camel: string, by: (real: string) => string) => {
    const hit = pick(value, camel);
    if (hit && typeof hit[1] === "string") out[hit[0]] = by(hit[1]);
  };
  for (const camel of UTILITY_NAME_FIELDS) replace(camel, demoUtilityName);
  for (const camel of ACCOUNT_NUMBER_FIELDS) replace(camel, demoAccountNumber);
  replace("username", demoUsername);
  replace("url", anonymiseConnectLink);
  for (const [k, v] of Object.entries(value))
    if (typeof v === "string" && PROVIDER_ID_KEY.test(k)) out[k] = demoProviderId(v);
  if (isUtilityObject(value, key)) {
    out.name = demoUtilityName(value.name as string);
    // The monitoring providers' list calls the name a label.
    if (typeof value.label === "string") out.label = demoUtilityName(value.label);
  } else if (pick(value, "arcadiaProviderId") !== null && typeof value.label === "string") {
    out.label = demoUtilityName(value.label);
  }
  if (isAccountObject(value, key)) out.number = demoAccountNumber(value.number as string);
}

function walk(value: unknown, buildingId: number | null, key: string | null = null): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, buildingId, key));
  if (!isObj(value)) return value;
  if (isUserObject(value)) return value;
  const building = isBuildingObject(value, key);
  const own = num(pick(value, "buildingId")?.[1]) ?? (building ? num(value.id) : null) ?? buildingId;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) out[k] = walk(v, own, k);
  anonymiseAccountFields(value, key, out);

  if (isClientObject(value)) out.name = DEMO_CLIENT_NAME;
  if (isPersonObject(value)) {
    const p = demoPerson(num(value.id)!);
    out.email = p.email;
    for (const [camel, v] of [
      ["firstName", p.firstName],
      ["lastName", p.lastName],
    ] as const) {
      const hit = pick(value, camel);
      if (hit) out[hit[0]] = v;
    }
  }
  for (const field of ["clientName", "client_name"])
    if (typeof value[field] === "string") out[field] = DEMO_CLIENT_NAME;

  if (own !== null) {
    if (building) {
      out.name = demoName(own);
      const nick = pick(value, "nickname");
      if (nick && nick[1]) out[nick[0]] = demoName(own);
      const code = pick(value, "code");
      if (code && typeof code[1] === "string") out[code[0]] = demoCode(own);
      const address = pick(value, "address");
      if (address && isObj(address[1])) out[address[0]] = replaceAddressObject(address[1], own);
    }
    if (pick(value, "addressLine1")) Object.assign(out, replaceAddressObject(out, own));
    for (const camel of ["buildingName", "locationName", "buildingNickname"]) {
      const hit = pick(value, camel);
      if (hit && typeof hit[1] === "string") out[hit[0]] = demoName(own);
    }
    for (const camel of ["buildingAddress", "locationAddress"]) {
      const hit = pick(value, camel);
      if (hit && typeof hit[1] === "string") out[hit[0]] = demoAddressLine(own);
      else if (hit && isObj(hit[1])) out[hit[0]] = replaceAddressObject(hit[1], own);
    }
  }
  return out;
}

/**
 * Anonymises any upstream answer: client names, people, building names, nicknames, codes and addresses,
 * utility names, provider ids, account numbers and credential usernames, however deeply nested.
 */
export function anonymise<T>(body: T): T {
  return walk(body, null) as T;
}

/** The session user's client name, anonymised while demo mode is on. */
export function anonymiseUser<U extends { isDemoMode: boolean; client: { name: string } | null }>(
  user: U,
): U {
  if (!user.isDemoMode || !user.client) return user;
  return { ...user, client: { ...user.client, name: DEMO_CLIENT_NAME } };
}

/** A plain object of a query or body (a Date or other class instance is left whole). */
const isPlain = (v: unknown): v is Obj =>
  isObj(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** Whether a query or body about to go upstream carries a provider id stand-in, at any depth. */
export function hasProviderStandIn(value: unknown): boolean {
  if (typeof value === "string") return isDemoProviderId(value);
  if (Array.isArray(value)) return value.some(hasProviderStandIn);
  return isPlain(value) && Object.values(value).some(hasProviderStandIn);
}

/**
 * A query or body going upstream with every provider id stand-in (from a link or form of a demo-mode page)
 * replaced by the real id among `realIds`, at any depth. A stand-in of no known provider stays as it is:
 * upstream refuses it as an unknown utility, as it would any unknown id.
 */
export function restoreProviderIds<T>(value: T, realIds: readonly string[]): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return isDemoProviderId(v) ? (realProviderId(v, realIds) ?? v) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (!isPlain(v)) return v;
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x);
    return out;
  };
  return walk(value) as T;
}
