import fs from "node:fs";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import { describe, expect, it } from "vitest";
import { createMetrics, createRouteLabeler, endpointTemplate } from "~/server/ops/metrics.server";

describe("endpointTemplate", () => {
  it.each([
    ["/buildings", "/buildings"],
    ["/building/105/bill-statements?page=2&size=75", "/building/:id/bill-statements"],
    ["/bill-statement/9001/bill-flag/17", "/bill-statement/:id/bill-flag/:id"],
    ["/users/dana%40harborcoffee.test/login-options", "/users/:email/login-options"],
    ["/users/dana@harborcoffee.test/login-options", "/users/:email/login-options"],
    ["/override-report/3/2024-01-01/2024-01-31", "/override-report/:id/:date/:date"],
    [
      "/thermostat/12/history/2024-01-01T00:00:00Z/2024-01-02T00:00:00Z",
      "/thermostat/:id/history/:date/:date",
    ],
    ["/12/credentials_requiring_action", "/:id/credentials_requiring_action"],
    ["/prospect-analysis/0f8fad5b-d9cb-469f-a165-70867728950e", "/prospect-analysis/:param"],
    ["/thermostats/dismiss-audit-issue/4/offline", "/thermostats/dismiss-audit-issue/:id/offline"],
    ["/tokens/abc123def456", "/tokens/:param"],
    ["/", "/"],
  ])("%s → %s", (raw, template) => expect(endpointTemplate(raw)).toBe(template));

  /** Example values by the api's parameter names. */
  const EXAMPLE: Record<string, [string, string]> = {
    email: ["sam%40harborcoffee.test", ":email"],
    startDate: ["2024-03-01", ":date"],
    endDate: ["2024-03-31", ":date"],
    issueSlug: ["offline", "offline"], // the api's fixed vocabulary of issue types: a plain word stays
  };

  it("turns every endpoint of the reference api, with real-looking values, into a template without them", () => {
    const dir = path.resolve("api/routes");
    const patterns = new Set<string>();
    for (const file of fs.readdirSync(dir)) {
      const source = fs.readFileSync(path.join(dir, file), "utf8");
      for (const m of source.matchAll(/\br\.(?:get|post|put|patch|delete)\(\s*"(\/[^"]*)"/g))
        patterns.add(m[1]);
    }
    expect(patterns.size).toBeGreaterThan(30);
    let n = 0;
    for (const pattern of patterns) {
      const raw = pattern.replace(/:(\w+)/g, (_m, name: string) => EXAMPLE[name]?.[0] ?? String(100 + n++));
      const expected = pattern.replace(/:(\w+)/g, (_m, name: string) => EXAMPLE[name]?.[1] ?? ":id");
      expect(endpointTemplate(raw), raw).toBe(expected);
      expect(endpointTemplate(raw)).not.toMatch(/\d|@|%40/);
    }
  });
});

describe("createRouteLabeler", () => {
  // A manifest shaped like the build's (ids, relative paths, parents, index routes).
  const route = (id: string, parentId: string | undefined, extra: { path?: string; index?: boolean }) => ({
    id,
    parentId,
    ...extra,
    module: {},
  });
  const routes = Object.fromEntries(
    [
      route("root", undefined, { path: "" }),
      route("routes/_index", "root", { index: true }),
      route("routes/login", "root", { path: "login" }),
      route("routes/_app", "root", {}),
      route("routes/_app.locations._index", "routes/_app", { path: "locations", index: true }),
      route("routes/_app.locations.$locationId", "routes/_app", { path: "locations/:locationId" }),
      route("routes/_app.locations.$locationId.usage._index", "routes/_app.locations.$locationId", {
        path: "usage",
        index: true,
      }),
      route("routes/$", "root", { path: "*" }),
    ].map((r) => [r.id, r]),
  ) as unknown as ServerBuild["routes"];
  const label = createRouteLabeler(routes, (p) => p.startsWith("/build/") || p === "/favicon.ico");

  it.each([
    ["/", "routes/_index"],
    ["/login", "routes/login"],
    ["/locations", "routes/_app.locations._index"],
    ["/locations/105", "routes/_app.locations.$locationId"],
    ["/locations/106/usage", "routes/_app.locations.$locationId.usage._index"],
    ["/locations.data", "routes/_app.locations._index"],
    ["/_root.data", "routes/_index"],
    ["/no/such/page", "routes/$"],
    ["/build/entry.client-ABC.js", "static"],
    ["/favicon.ico", "static"],
    ["/healthz", "healthz"],
    ["/readyz", "readyz"],
    ["/api/bill-statement/1/download", "api-download"],
  ])("%s → %s", (p, id) => expect(label(p)).toBe(id));

  it("labels a path no route matches (no splat route) `unmatched`", () => {
    const { "routes/$": _splat, ...noSplat } = routes;
    expect(createRouteLabeler(noSplat, () => false)("/no/such/page")).toBe("unmatched");
  });
});

describe("createMetrics", () => {
  it("counts upstream failures (timeout, network, 5xx, invalid) but not answers or an aborted request", async () => {
    const m = createMetrics();
    m.upstreamCall("/building/7/bill-statements", "GET", 200, 0.02);
    m.upstreamCall("/building/8/bill-statements", "GET", 404, 0.02);
    m.upstreamCall("/building/9/bill-statements", "GET", 503, 0.02);
    m.upstreamCall("/buildings", "get", "timeout", 1.5);
    m.upstreamCall("/buildings", "GET", "network", 0.001);
    m.upstreamCall("/buildings", "GET", "invalid", 0.01);
    m.upstreamCall("/buildings", "GET", "aborted", 0.01);
    const text = await m.registry.metrics();
    expect(text).toContain(
      'upstream_request_duration_seconds_count{endpoint="/building/:id/bill-statements",method="GET",status="200"} 1',
    );
    expect(text).toContain(
      'upstream_request_duration_seconds_count{endpoint="/building/:id/bill-statements",method="GET",status="404"} 1',
    );
    expect(text).toContain(
      'upstream_request_failures_total{endpoint="/building/:id/bill-statements",method="GET",reason="5xx"} 1',
    );
    for (const reason of ["timeout", "network", "invalid"])
      expect(text).toContain(
        `upstream_request_failures_total{endpoint="/buildings",method="GET",reason="${reason}"} 1`,
      );
    expect(text).not.toMatch(/reason="aborted"/);
    expect(text).not.toMatch(/failures_total\{[^}]*status|reason="4/);
  });
});

describe("createRouteLabeler against React Router's own matching", () => {
  /** The tree Remix's server runtime builds from a manifest (createRoutes), for matchRoutes as the oracle. */
  const tree = (manifest: ServerBuild["routes"], parentId?: string): Parameters<typeof matchRoutes>[0] =>
    Object.values(manifest)
      .filter((r) => r.parentId === parentId)
      .map((r) => ({
        id: r.id,
        path: r.path,
        index: r.index,
        caseSensitive: r.caseSensitive,
        children: tree(manifest, r.id),
      })) as Parameters<typeof matchRoutes>[0];
  const oracle = (manifest: ServerBuild["routes"], path: string) => {
    const m = matchRoutes(tree(manifest), path);
    return m ? m[m.length - 1].route.id! : "unmatched";
  };

  it("labels every path as the deepest route matchRoutes finds, over the app's real routes", async () => {
    const { readConfig } = await import("@remix-run/dev/dist/config.js");
    const config = await readConfig(process.cwd());
    const manifest = Object.fromEntries(
      Object.values(config.routes).map((r) => [r.id, { ...r, module: {} }]),
    ) as unknown as ServerBuild["routes"];
    expect(Object.keys(manifest).length).toBeGreaterThan(25);
    const label = createRouteLabeler(manifest, () => false);
    const paths = [
      "/",
      "/login",
      "/login/",
      "/LOGIN",
      "/login/link",
      "/logout",
      "/locations",
      "/locations/105",
      "/locations/105/",
      "/locations/105/control",
      "/locations/105/spending",
      "/locations/105/spending/csv",
      "/locations/105/usage",
      "/locations/105/usage/demand",
      "/locations/105/usage/demand/csv",
      "/locations/105/usage/demand/extra",
      "/override-report",
      "/override-report/1003",
      "/override-report/1003/csv",
      "/override-report/1003/x/y",
      "/grid-services",
      "/accounts",
      "/settings",
      "/fix-my-bill/action_requested",
      "/fix-my-bill",
      "/dismiss-thermostat-issue",
      "/privacy-policy",
      "/free-bill-health-check",
      "/no/such/page",
      "/locations/a%2Fb/control",
      "/locations/%E2%9C%93",
      "/locations/%zz",
      "//locations",
    ];
    for (const p of paths) expect(label(p), p).toBe(oracle(manifest, p));
    // Every route's own path, with example values for its parameters, answers as React Router does.
    for (const r of Object.values(manifest)) {
      const full: string[] = [];
      for (let cur: typeof r | undefined = r; cur; cur = cur.parentId ? manifest[cur.parentId] : undefined)
        if (cur.path) full.unshift(cur.path);
      const p = `/${full.join("/")}`.replace(/:\w+\??/g, "7").replace(/\*$/, "x/y");
      expect(label(p), p).toBe(oracle(manifest, p));
    }
  });

  it("ranks like React Router: static over dynamic, index routes, optional segments, splats, sibling order", () => {
    const route = (id: string, parentId: string | undefined, extra: object) => ({
      id,
      parentId,
      ...extra,
      module: {},
    });
    const manifest = Object.fromEntries(
      [
        route("root", undefined, { path: "" }),
        route("a.$id", "root", { path: "a/:id" }),
        route("a.new", "root", { path: "a/new" }),
        route("b.($x)", "root", { path: "b/:x?/c" }),
        route("b.c", "root", { path: "b/c" }),
        route("d", "root", { path: "d" }),
        route("d._index", "d", { index: true }),
        route("d.$", "d", { path: "*" }),
        route("e.one", "root", { path: "e/:a" }),
        route("e.two", "root", { path: "e/:b" }),
        route("f", "root", { path: "F", caseSensitive: true }),
        route("$", "root", { path: "*" }),
      ].map((r) => [r.id, r]),
    ) as unknown as ServerBuild["routes"];
    const label = createRouteLabeler(manifest, () => false);
    for (const p of [
      "/a/1",
      "/a/new",
      "/a/NEW",
      "/b/c",
      "/b/9/c",
      "/b/9",
      "/d",
      "/d/",
      "/d/x/y",
      "/e/1",
      "/F",
      "/f",
      "/zzz",
    ])
      expect(label(p), p).toBe(oracle(manifest, p));
    expect(label("/a/new")).toBe("a.new");
    expect(label("/b/9/c")).toBe("b.($x)");
    expect(label("/e/1")).toBe("e.one");
  });
});
