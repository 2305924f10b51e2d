import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEAM_USERS } from "../../api/db/seed/accounts";
import {
  HARBOR_ACCOUNT_ROWS,
  HARBOR_BUILDING_ROWS,
  HARBOR_CREDENTIALS,
  UTILITY_ROWS,
} from "../../api/db/seed/core";
import { THERMOSTAT_ROWS } from "../../api/db/seed/devices";
import { demoProviderId } from "../../shared/demo-stand-ins";
import { PAGES } from "../support/pages";
import { GET_ROUTES } from "../support/routes";
import { startStack, webLogin, type Stack } from "../support/stack";

/**
 * Demo mode, walked as staff would show it: impersonating Harbor Coffee Co. with demo mode on, every page the
 * suites know and every same-site link those pages lead to (documents, their hydration data, CSV downloads)
 * must name none of the seed's real identities: building names, nicknames, codes and addresses, people,
 * utility names and provider ids, account numbers and the usernames of stored utility credentials.
 */
const MORGAN = "morgan@energyops.test";
let s: Stack;
let cookie = "";

/** Every real identity of the demo client in the seed (utilities: every one, their names and ids betray a region). */
const REAL: string[] = [
  "Harbor Coffee",
  "harborcoffee",
  ...HARBOR_BUILDING_ROWS.flatMap(([, name, nickname, code, line1, line2, city, state, zip]) =>
    [name, nickname, code, line1, line2, `${city}, ${state} ${zip}`].filter((v): v is string => Boolean(v)),
  ),
  ...UTILITY_ROWS.map((u) => u[1]),
  // Provider ids ("prov_comed") name the utility too, in links, form values and hydration data.
  ...UTILITY_ROWS.map((u) => u[2]),
  ...HARBOR_ACCOUNT_ROWS.map((a) => a[2]),
  "29-4410-8801-0003-8",
  ...HARBOR_CREDENTIALS.map((c) => c[2]),
];
// People as whole words (a "Sam" inside "Same" is not a person).
const PEOPLE = [
  "Dana",
  "Reyes",
  "Sam",
  "Okafor",
  ...Object.values(TEAM_USERS).flatMap((u) => [u.first, u.last]),
];

/** The page's text as a reader (or a script reading the hydration data) sees it: entities and escapes undone. */
const readable = (raw: string) =>
  raw
    .replace(/\\u0026/g, "&")
    .replace(/\\u003c/g, "<")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"');
// A thermostat's own name ("Roastery Floor") is a device, not a place or a person: demo mode keeps it.
const withoutDeviceNames = (text: string) =>
  THERMOSTAT_ROWS.reduce((t, d) => t.split(d.name).join("[device]"), text);
const leaks = (raw: string) => {
  const text = withoutDeviceNames(readable(raw));
  return [
    ...REAL.filter((real) => text.includes(real)),
    ...PEOPLE.filter((name) => new RegExp(`(^|[^\\p{L}])${name}([^\\p{L}]|$)`, "u").test(text)),
  ];
};

/** Like a browser: the newest session cookie is kept (impersonation rotates it, a flash message rewrites it). */
async function send(path: string, init: RequestInit = {}) {
  const res = await fetch(`${s.url}${path}`, { ...init, headers: { cookie }, redirect: "manual" });
  const next = res.headers.getSetCookie().find((c) => c.includes("session="));
  if (next) cookie = next.split(";")[0];
  return res;
}
async function post(path: string, fields: Record<string, string>) {
  const res = await send(path, { method: "POST", body: new URLSearchParams(fields) });
  await res.body?.cancel();
  return res;
}

beforeAll(async () => {
  s = await startStack();
  cookie = await webLogin(s.url, MORGAN);
  const start = await post("/impersonate", { intent: "start", clientId: "1", reason: "demo sweep" });
  expect(start.status).toBe(302);
  // The page it leads to shows "You are now impersonating Harbor Coffee Co." once: demo mode is not on yet.
  await (await send(start.headers.get("location")!)).text();
  expect((await post("/impersonate", { intent: "demo-on", redirectTo: "/" })).status).toBe(302);
});
afterAll(async () => {
  await s?.stop();
});

const SEEDS = [
  ...GET_ROUTES.filter((r) => !r.public).map((r) => r.path),
  ...PAGES.filter((p) => p.user !== null).map((p) => p.path),
  "/locations",
  "/locations?expanded=106",
  "/accounts",
  "/authorize-arcadia",
  // A step reached from a link carrying a provider id (its stand-in: the page never holds a real one).
  `/authorize-arcadia?step=review_accounts&utility=${demoProviderId("prov_scl")}`,
  "/settings?tab=team",
  "/impersonate",
  "/grid-services",
  "/onboarding",
  "/dismiss-thermostat-issue?thermostatId=1024&issueSlug=permanent_hold",
  ...HARBOR_BUILDING_ROWS.map(([id]) => `/locations/${id}/spending`),
];
const MAX_PAGES = 250;
/** Query variants fetched per path (a period picker links to every bill): enough to see each shape. */
const VARIANTS_PER_PATH = 4;

/** Same-site links of a page (documents and CSV downloads); never /logout and never the api's files. */
function linksOf(html: string) {
  return [...html.matchAll(/href="(\/[^"#]*)"/g)]
    .map((m) => m[1].replace(/&amp;/g, "&"))
    .filter(
      (href) =>
        !href.startsWith("//") &&
        !/^\/(logout|build\/|assets\/)|\/download$|\.(css|js|svg|ico)(\?|$)/.test(href),
    );
}

describe("demo mode shows no real identity on any page", () => {
  it("walks every known page and the links they lead to", async () => {
    const seen = new Set<string>();
    const variants = new Map<string, number>();
    const queue = [...new Set(SEEDS)];
    const found: Record<string, string[]> = {};
    let fetched = 0;
    while (queue.length && fetched < MAX_PAGES) {
      const path = queue.shift()!;
      const pathname = path.split("?")[0];
      if (seen.has(path) || (variants.get(pathname) ?? 0) >= VARIANTS_PER_PATH) continue;
      seen.add(path);
      variants.set(pathname, (variants.get(pathname) ?? 0) + 1);
      const res = await send(path);
      fetched++;
      const type = res.headers.get("content-type") ?? "";
      const location = res.headers.get("location");
      if (location?.startsWith("/") && !seen.has(location)) queue.push(location);
      if (!/text\/(html|csv|plain)|json/.test(type)) {
        await res.body?.cancel();
        continue;
      }
      const body = await res.text();
      const shown = leaks(body);
      if (shown.length) found[path] = shown;
      for (const href of linksOf(body)) if (!seen.has(href)) queue.push(href);
    }
    expect(found).toEqual({});
    // The walk reached the pages that matter (and demo mode was on: the banner says so).
    expect(fetched).toBeGreaterThan(150);
    const locations = await send("/locations");
    expect(await locations.text()).toContain("Demo Client");
  }, 300_000);
});
