import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ASSETS_DIR, ASSETS_URL, PUBLIC_DIR, SERVER_BUILD } from "../../shared/build-output.mjs";
import { INPUTS } from "../support/inputs";
import { PAGES } from "../support/pages";
import { ACTIONS, GET_ROUTES } from "../support/routes";

/** One URL pattern the server answers: a Remix route of the built manifest, or a server-level endpoint. */
export type RoutePattern = {
  /** The Remix route id, or `server:<path>` for an endpoint of server.ts. */
  id: string;
  /** Segments: literal text, `:name` (dynamic), `:name?` (optional) or `*` (splat). */
  segments: string[];
};

type ManifestRoute = { id: string; path?: string; index?: boolean; parentId?: string };

/**
 * Every URL pattern of the built server (`build/index.js`, the server build's `routes`): each route's path is
 * the join of its ancestors' paths, so a route added to `app/routes` is fuzzed without anyone listing it.
 * Pathless layouts (no path of their own, not an index) are skipped: a URL reaches them only through a child.
 */
export async function routePatterns(buildFile = path.resolve(SERVER_BUILD)): Promise<RoutePattern[]> {
  if (!fs.existsSync(buildFile)) throw new Error(`${buildFile} is missing: run \`npm run build\` first`);
  const build = (await import(/* @vite-ignore */ pathToFileURL(buildFile).href)) as {
    routes: Record<string, ManifestRoute>;
  };
  const routes = build.routes;
  const fullPath = (id: string): string[] => {
    const route = routes[id];
    if (!route) return [];
    const own = (route.path ?? "").split("/").filter(Boolean);
    return [...(route.parentId ? fullPath(route.parentId) : []), ...own];
  };
  const patterns: RoutePattern[] = [];
  for (const route of Object.values(routes)) {
    if (!route.index && !route.path) continue;
    patterns.push({ id: route.id, segments: fullPath(route.id) });
  }
  // Simplest first (fewest segments, fewest dynamic ones): fast-check shrinks towards the first route.
  const weight = (p: RoutePattern) =>
    p.segments.length * 10 + p.segments.filter((s) => /^[:*]/.test(s)).length;
  return [...patterns, ...SERVER_ENDPOINTS].sort((a, b) => weight(a) - weight(b) || a.id.localeCompare(b.id));
}

/**
 * The endpoints server.ts answers before Remix (they are not in the route manifest): health and readiness,
 * browser error reports, the `/api` download passthrough, fingerprinted build assets and public files.
 */
export const SERVER_ENDPOINTS: RoutePattern[] = [
  { id: "server:/healthz", segments: ["healthz"] },
  { id: "server:/readyz", segments: ["readyz"] },
  { id: "server:/client-errors", segments: ["client-errors"] },
  { id: "server:/api/bill-statement", segments: ["api", "bill-statement", ":statementId", "download"] },
  {
    id: "server:/api/client/export",
    segments: ["api", "client", ":clientId", "bill-statements", "export-csv"],
  },
  { id: `server:${ASSETS_URL.slice(0, -1)}`, segments: [...ASSETS_URL.split("/").filter(Boolean), "*"] },
  ...fs
    .readdirSync(PUBLIC_DIR)
    .filter((f) => f !== path.relative(PUBLIC_DIR, ASSETS_DIR))
    .map((f) => ({ id: `server:/${f}`, segments: [f] })),
];

/** The concrete paths the other suites already use: the source of valid values for dynamic segments. */
const KNOWN_PATHS = [
  ...ACTIONS,
  ...GET_ROUTES.map((r) => r.path),
  ...PAGES.map((p) => p.path),
  ...INPUTS.map((i) => i.path),
].map((p) => p.split("?")[0]);

/**
 * Valid values of each dynamic segment, by name, harvested by matching the known paths against the patterns
 * (e.g. `locationId` → 101, 104, 105), so the fuzzer reaches past "not found" into the real pages.
 */
export function validSegmentValues(patterns: RoutePattern[]): Map<string, string[]> {
  const values = new Map<string, Set<string>>();
  for (const known of KNOWN_PATHS) {
    const parts = known.split("/").filter(Boolean);
    for (const { segments } of patterns) {
      const required = segments.filter((s) => !s.endsWith("?"));
      const candidates = [segments, required];
      for (const candidate of candidates) {
        if (candidate.length !== parts.length || candidate.includes("*")) continue;
        const matches = candidate.every((s, i) => s.startsWith(":") || s === parts[i]);
        if (!matches) continue;
        candidate.forEach((s, i) => {
          if (!s.startsWith(":") || parts[i] === "HOSTILE") return;
          const name = s.replace(/^:|\?$/g, "");
          if (!values.has(name)) values.set(name, new Set());
          values.get(name)!.add(parts[i]);
        });
      }
    }
  }
  return new Map([...values].map(([k, v]) => [k, [...v]]));
}

/** Every field name the listed inputs of the other suites post or query: the names real forms use. */
export const KNOWN_FIELD_NAMES: string[] = [
  ...new Set([
    ...INPUTS.flatMap((i) => [i.field, ...Object.keys(i.valid ?? {})]),
    ...[...ACTIONS, ...GET_ROUTES.map((r) => r.path), ...PAGES.map((p) => p.path)].flatMap((p) => [
      ...new URL(p, "http://x").searchParams.keys(),
    ]),
  ]),
];

/** Values the listed inputs post as valid (e.g. intents such as `save`, `password`, `dismiss`). */
export const KNOWN_FIELD_VALUES: string[] = [
  ...new Set([
    ...INPUTS.flatMap((i) => Object.values(i.valid ?? {})),
    ...[...ACTIONS, ...GET_ROUTES.map((r) => r.path), ...PAGES.map((p) => p.path)].flatMap((p) => [
      ...new URL(p, "http://x").searchParams.values(),
    ]),
  ]),
];
