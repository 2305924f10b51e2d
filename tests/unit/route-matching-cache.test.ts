import fs from "node:fs";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import * as patched from "@remix-run/router";
import type { AgnosticRouteObject } from "@remix-run/router";
import { transformSync } from "esbuild";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

/**
 * patches/@remix-run+router+1.23.3.patch: React Router's matchRoutes flattens, ranks and compiles a route tree
 * once per tree shape instead of on every call (four calls per page request in our server, two of them on a
 * route tree Remix builds anew for every render). The server loads the package's CommonJS build, which the
 * patch changes; the ES module build (what the browser bundle uses) is left as published, and serves here as
 * the unpatched algorithm to compare with.
 */
type Router = typeof patched;
const ROUTER_DIR = path.resolve("node_modules/@remix-run/router/dist");

function loadUnpatched(): Router {
  const source = fs.readFileSync(path.join(ROUTER_DIR, "router.js"), "utf8");
  const { code } = transformSync(source, { format: "cjs", target: "node20", loader: "js" });
  const module = { exports: {} as Router };
  new Function("module", "exports", code)(module, module.exports);
  return module.exports;
}

const original = loadUnpatched();
const { matchRoutes } = patched;

type Match = NonNullable<ReturnType<typeof matchRoutes>>[number];
/** A match list with its route objects by identity (toBe), params, pathname and pathnameBase. */
function expectSameMatches(got: Match[] | null, want: Match[] | null, label: string) {
  if (want === null) return expect(got, label).toBeNull();
  expect(got, label).not.toBeNull();
  expect(got!.length, label).toBe(want.length);
  got!.forEach((m, i) => {
    expect(m.route, `${label} [${i}] route`).toBe(want[i].route);
    expect({ ...m, route: undefined }, `${label} [${i}]`).toEqual({ ...want[i], route: undefined });
  });
  // Unpatched, the matches of one answer share one params object.
  const shared = (ms: Match[]) => ms.every((m) => m.params === ms[0].params);
  expect(shared(got!), `${label} params shared`).toBe(shared(want));
}

/** Calls both and compares: the same matches, or the same error. */
function compare(routes: AgnosticRouteObject[], pathname: string, basename?: string) {
  let want: Match[] | null = null;
  let wantError: unknown;
  try {
    want = original.matchRoutes(routes, pathname, basename);
  } catch (error) {
    wantError = error;
  }
  if (wantError) {
    expect(() => matchRoutes(routes, pathname, basename), pathname).toThrow((wantError as Error).message);
    return;
  }
  expectSameMatches(matchRoutes(routes, pathname, basename), want, pathname);
}

/** Every route's full path with example values for its parameters, and odd variants of each. */
function pathsOf(routes: AgnosticRouteObject[], parent = ""): string[] {
  return routes.flatMap((r) => {
    const full = r.path?.startsWith("/") ? r.path : [parent, r.path ?? ""].filter(Boolean).join("/");
    const example = `/${full}`
      .replace(/\/+/g, "/")
      .replace(/:[\w-]+\?/g, "opt")
      .replace(/:[\w-]+/g, "105")
      .replace(/\*$/, "x/y%20z");
    const variants = [example, `${example}/`, `${example}.data`, example.toUpperCase(), `${example}/extra`];
    return [...variants, ...pathsOf(r.children ?? [], full)];
  });
}

const ODD_PATHS = [
  "/",
  "",
  "//",
  "/_root.data",
  "/no/such/page",
  "/locations//105",
  "//locations",
  "/locations/a%2Fb/control",
  "/locations/%E2%9C%93",
  "/locations/%zz",
  "/locations/105/usage/demand/csv",
  "/override-report/1003/x/y",
  "/fix-my-bill/action_requested",
  "/privacy-policy?x=1",
  "/privacy-policy#top",
];

let appManifest: ServerBuild["routes"];
beforeAll(async () => {
  const { readConfig } = await import("@remix-run/dev/dist/config.js");
  const config = await readConfig(process.cwd());
  appManifest = Object.fromEntries(
    Object.values(config.routes).map((r) => [r.id, { ...r, module: { default: () => null } }]),
  ) as unknown as ServerBuild["routes"];
});

afterEach(() => vi.restoreAllMocks());

describe("the patched matchRoutes answers as the unpatched one", () => {
  it("is the patched build, compared with the published algorithm", () => {
    expect(fs.readFileSync(path.join(ROUTER_DIR, "router.cjs.js"), "utf8")).toContain("[EnergyOps patch]");
    expect(fs.readFileSync(path.join(ROUTER_DIR, "router.js"), "utf8")).not.toContain("EnergyOps");
  });

  it("over the app's route trees, as Remix's server runtime and <RemixServer> build them", async () => {
    const runtime = await import("@remix-run/server-runtime/dist/routes.js");
    const react = await import("@remix-run/react/dist/routes.js");
    const ids = Object.keys(appManifest);
    expect(ids.length).toBeGreaterThan(25);
    const future = { v3_relativeSplatPath: true, v3_singleFetch: true, v3_lazyRouteDiscovery: true };
    const routeModules = Object.fromEntries(ids.map((id) => [id, { default: () => null }]));
    // Remix's functions, typed for their own manifests: the app's manifest from the config stands in.
    const manifest = appManifest as never;
    const serverRoutes = () =>
      patched.UNSAFE_convertRoutesToDataRoutes(
        react.createServerRoutes(manifest, routeModules, future as never, false),
        () => ({ hasErrorBoundary: false }),
      );
    const trees = [
      runtime.createRoutes(appManifest),
      runtime.createStaticHandlerDataRoutes(appManifest, future as never),
      // <RemixServer>: a new tree on every render, then createStaticRouter's data routes.
      serverRoutes(),
      serverRoutes(),
    ] as unknown as AgnosticRouteObject[][];
    vi.spyOn(console, "warn").mockImplementation(() => {}); // "/locations/%zz": could not be decoded
    const paths = [...new Set([...pathsOf(trees[0]), ...ODD_PATHS])];
    expect(paths.length).toBeGreaterThan(100);
    for (const tree of trees) for (const p of paths) compare(tree, p);
    // Twice over: the second round answers from the cache.
    for (const tree of trees) for (const p of paths) compare(tree, p);
    for (const p of ["/locations", "/locations/105/usage", "/app/locations", "/other"])
      compare(trees[0], p, "/app");
  });

  it("over a tree with optional segments, case-sensitive and absolute paths, ties and errors", () => {
    const tree = (): AgnosticRouteObject[] => [
      {
        id: "root",
        path: "",
        children: [
          { id: "home", index: true },
          { id: "lang", path: ":lang?/about" },
          { id: "opt", path: "one/:two?/three/:four?/:five?" },
          { id: "static-opt", path: "docs/intro?" },
          { id: "cs", path: "Case", caseSensitive: true },
          { id: "ci", path: "case" },
          { id: "first", path: "same/:a" },
          { id: "second", path: "same/:b" },
          {
            id: "layout",
            children: [
              { id: "abs", path: "/absolute/path" },
              { id: "deep", path: "deep/:id", children: [{ id: "deep-index", index: true }] },
            ],
          },
          { id: "files", path: "files/*" },
          { id: "splat", path: "*" },
        ],
      },
    ];
    const paths = [
      "/",
      "/about",
      "/en/about",
      "/one/three",
      "/one/2/three/4/5",
      "/one/three/4",
      "/docs",
      "/docs/intro",
      "/Case",
      "/case",
      "/CASE",
      "/same/1",
      "/absolute/path",
      "/deep/7",
      "/deep/7/",
      "/files",
      "/files/a/b%2Fc",
      "/nothing/here",
    ];
    for (const p of paths) compare(tree(), p);
    const first = tree();
    for (const p of paths) compare(first, p);

    const badAbsolute = tree();
    badAbsolute[0].children!.push({ id: "bad", path: "/elsewhere", children: [{ path: "/nope" }] });
    compare(badAbsolute, "/");
    const indexWithChildren = tree();
    indexWithChildren[0].children!.push({ id: "x", index: true, children: [{ path: "y" }] } as never);
    compare(indexWithChildren, "/");
  });

  it("sees a tree changed in place (a route added, a path changed)", () => {
    const routes: AgnosticRouteObject[] = [
      { id: "a", path: "a" },
      { id: "rest", path: "*" },
    ];
    expect(matchRoutes(routes, "/b")!.at(-1)!.route.id).toBe("rest");
    routes.push({ id: "b", path: "b" });
    expect(matchRoutes(routes, "/b")!.at(-1)!.route.id).toBe("b");
    routes[2].path = "c";
    expect(matchRoutes(routes, "/b")!.at(-1)!.route.id).toBe("rest");
    expect(matchRoutes(routes, "/c")!.at(-1)!.route.id).toBe("b");
    routes[0] = { id: "a2", path: "a" };
    expect(matchRoutes(routes, "/a")!.at(-1)!.route.id).toBe("a2");
  });

  it("sees every kind of change to an array it matched before, at any depth", () => {
    // A later call on the same array checks each route against what the last call read (no shape spelt).
    const tree = (): AgnosticRouteObject[] => [
      {
        id: "root",
        path: "/",
        children: [
          { id: "home", index: true },
          { id: "loc", path: "locations/:id", children: [{ id: "usage", path: "usage" }] },
          { id: "any", path: "*" },
        ],
      },
    ];
    const paths = [
      "/",
      "/locations/7",
      "/locations/7/usage",
      "/LOCATIONS/7/USAGE",
      "/locations/7/cost",
      "/x",
    ];
    const changes: [string, (routes: AgnosticRouteObject[]) => void][] = [
      ["a nested route added", (r) => r[0].children![1].children!.push({ id: "cost", path: "cost" })],
      ["a nested route removed", (r) => r[0].children!.splice(2, 1)],
      ["a nested route replaced", (r) => (r[0].children![1].children![0] = { id: "usage2", path: "usage" })],
      ["a children array replaced", (r) => (r[0].children![1].children = [{ id: "c", path: "cost" }])],
      ["an index flag turned off", (r) => (r[0].children![0].index = false as never)],
      ["case sensitivity turned on", (r) => (r[0].children![1].caseSensitive = true)],
      ["a path changed", (r) => (r[0].children![1].path = "sites/:id")],
      ["the last top-level route removed", (r) => r.pop()],
    ];
    for (const [label, change] of changes) {
      const routes = tree();
      for (const p of paths) compare(routes, p);
      change(routes);
      for (const p of paths) {
        const got = matchRoutes(routes, p)?.map((m) => m.route.id) ?? null;
        const want = original.matchRoutes(routes, p)?.map((m) => m.route.id) ?? null;
        expect(got, `${label}: ${p}`).toEqual(want);
      }
    }
  });
});

describe("the patched matchRoutes does the work once per tree shape", () => {
  /** A tree whose routes count how often anything reads their `path`. */
  function countingTree(manifest: ServerBuild["routes"], reads: { n: number }, parentId?: string) {
    return Object.values(manifest)
      .filter((r) => r.parentId === parentId)
      .map((r) => {
        const route = { id: r.id, index: r.index, caseSensitive: r.caseSensitive } as AgnosticRouteObject;
        Object.defineProperty(route, "path", {
          enumerable: true,
          get: () => (reads.n++, r.path),
        });
        const children = countingTree(manifest, reads, r.id);
        if (children.length) route.children = children;
        return route;
      });
  }

  it("reads each route once per call after the first: no flattening again, same tree or a new one", () => {
    const reads = { n: 0 };
    const tree = countingTree(appManifest, reads);
    const size = Object.keys(appManifest).length;
    matchRoutes(tree, "/locations/105/usage");
    for (const p of ["/locations/105/usage", "/privacy-policy", "/no/such/page", "/"]) {
      reads.n = 0;
      matchRoutes(tree, p);
      // The unpatched algorithm flattens on every call: three or four reads of each route's path.
      expect(reads.n, p).toBeLessThanOrEqual(size);
    }
    // A new tree of the same shape (what <RemixServer> builds on every render) is not flattened again either.
    const fresh = countingTree(appManifest, reads);
    reads.n = 0;
    const m = matchRoutes(fresh, "/locations/105/usage");
    expect(reads.n).toBeLessThanOrEqual(size);
    expect(m!.map((x) => x.route.id)).toEqual(
      original.matchRoutes(fresh, "/locations/105/usage")!.map((x) => x.route.id),
    );
  });

  it("answers a pathname it matched before without trying the branches, with params of its own", () => {
    const tree = countingTree(appManifest, { n: 0 });
    const first = matchRoutes(tree, "/locations/105/usage")!;
    // Typed read-only, but a plain object a caller can change (the unpatched answer's is too).
    (first[0].params as Record<string, string>).locationId = "changed by a caller";
    const tried = vi.spyOn(String.prototype, "match");
    const again = matchRoutes(tree, "/locations/105/usage")!;
    // Unpatched (and on a first call), every branch tried runs the path's RegExp through String#match.
    expect(tried).not.toHaveBeenCalled();
    tried.mockRestore();
    expect(again.at(-1)!.params).toEqual({ locationId: "105" });
    expect(again[0].params).not.toBe(first[0].params);
    expect(again.map((m) => m.route)).toEqual(first.map((m) => m.route));
    // Another tree of the same shape gets its own route objects.
    const fresh = countingTree(appManifest, { n: 0 });
    expectSameMatches(
      matchRoutes(fresh, "/locations/105/usage"),
      original.matchRoutes(fresh, "/locations/105/usage"),
      "fresh tree",
    );
  });

  it("compiles no path again on later calls", () => {
    const tree = countingTree(appManifest, { n: 0 });
    const paths = ["/locations/105/usage", "/privacy-policy", "/no/such/page", "/settings", "/"];
    for (const p of paths) matchRoutes(tree, p);
    const NativeRegExp = globalThis.RegExp;
    let compiled = 0;
    globalThis.RegExp = new Proxy(NativeRegExp, {
      construct(target, args, newTarget) {
        compiled++;
        return Reflect.construct(target, args, newTarget) as object;
      },
    });
    try {
      for (const p of paths) matchRoutes(tree, p);
    } finally {
      globalThis.RegExp = NativeRegExp;
    }
    // Unpatched: one RegExp per segment tried, dozens per call.
    expect(compiled).toBe(0);
  });
});
