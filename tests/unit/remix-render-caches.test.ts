import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createElement, useContext, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

/**
 * Three patches (patches/, ADR 0016) take per-page work out of Remix's document render. Node loads each package's
 * CommonJS build, which the patches change; the ES module builds are left as published and serve here as the
 * unpatched code to compare with.
 *   - <RemixServer> (@remix-run/react) keeps the server routes it makes per manifest (~90 route objects a page);
 *   - createStaticRouter (react-router-dom/server) converts a route tree to data routes once per tree;
 *   - callRouteLoader (@remix-run/server-runtime) hands a loader the request itself when there is no `index` or
 *     `_routes` parameter to strip, instead of two copies each with an AbortSignal of its own.
 */
const require = createRequire(import.meta.url);
const patchedReact = require("@remix-run/react/dist/server.js") as typeof import("@remix-run/react");
const patchedRouterDom = require("react-router-dom/server.js") as typeof import("react-router-dom/server");
const patchedData = require("@remix-run/server-runtime/dist/data.js") as {
  callRouteLoader: (args: Record<string, unknown>) => Promise<unknown>;
};
const { createStaticHandler } = require("@remix-run/router") as typeof import("@remix-run/router");
const { UNSAFE_DataRouterContext, Outlet } = require("react-router-dom") as typeof import("react-router-dom");

const file = (p: string) => fs.readFileSync(path.resolve("node_modules", p), "utf8");

describe("the patched builds", () => {
  it("are the CommonJS files Node loads; the ES module builds stay as published", () => {
    for (const [patched, published] of [
      ["@remix-run/react/dist/server.js", "@remix-run/react/dist/esm/server.js"],
      ["react-router-dom/server.js", "react-router-dom/server.mjs"],
      ["@remix-run/server-runtime/dist/data.js", "@remix-run/server-runtime/dist/esm/data.js"],
    ]) {
      expect(file(patched), patched).toContain("[EnergyOps patch]");
      expect(file(published), published).not.toContain("EnergyOps");
    }
  });
});

/** A two-route Remix app (root with an outlet, an index page) and what <RemixServer> needs to render it. */
async function entryContext(seen: unknown[][], label = "Home") {
  const Root: ComponentType = () => createElement("main", null, createElement(Outlet));
  const Index: ComponentType = () => {
    seen.push(useContext(UNSAFE_DataRouterContext)!.router.routes as unknown[]);
    return createElement("h1", null, label);
  };
  const manifestRoutes = {
    root: { id: "root", path: "", hasLoader: false, hasAction: false, module: "/root.js" },
    "routes/_index": {
      id: "routes/_index",
      parentId: "root",
      index: true,
      hasLoader: false,
      hasAction: false,
      module: "/index.js",
    },
  };
  const routeModules = { root: { default: Root }, "routes/_index": { default: Index } };
  const handler = createStaticHandler([
    { id: "root", path: "", children: [{ id: "routes/_index", index: true }] },
  ]);
  const staticHandlerContext = await handler.query(new Request("http://app.test/"));
  return {
    manifest: {
      routes: manifestRoutes,
      entry: { module: "/entry.js", imports: [] },
      url: "/m.js",
      version: "1",
    },
    routeModules,
    staticHandlerContext,
    future: {},
    isSpaMode: false,
    serverHandoffString: "{}",
    criticalCss: undefined,
    serializeError: (e: Error) => ({ message: e.message }),
  };
}

function render(RemixServer: ComponentType<{ context: unknown; url: string }>, context: unknown) {
  return renderToString(createElement(RemixServer, { context, url: "http://app.test/" }));
}

describe("<RemixServer> and createStaticRouter: the route tree is made once per build", () => {
  it("renders the same HTML as the published <RemixServer>", async () => {
    const published = (await import("@remix-run/react/dist/esm/server.js" as string)) as typeof patchedReact;
    const html = render(patchedReact.RemixServer as never, await entryContext([]));
    expect(html).toBe(render(published.RemixServer as never, await entryContext([])));
    expect(html).toContain("<main><h1>Home</h1></main>");
  });

  it("hands every render of a manifest the same routes, and a new tree for new route modules", async () => {
    const seen: unknown[][] = [];
    const first = await entryContext(seen);
    render(patchedReact.RemixServer as never, first);
    // The server runtime makes a fresh routeModules object per request, holding the same modules.
    render(patchedReact.RemixServer as never, { ...first, routeModules: { ...first.routeModules } });
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);

    // Other modules for the same manifest (a rebuilt app in development): a new tree, the new component.
    const other = await entryContext(seen, "Changed");
    const html = render(patchedReact.RemixServer as never, { ...other, manifest: first.manifest });
    expect(html).toContain("Changed");
    expect(seen[2]).not.toBe(seen[0]);
  });

  it("createStaticRouter converts a tree once and maps the matches onto its data routes, as published", async () => {
    const published = (await import("react-router-dom/server.mjs" as string)) as typeof patchedRouterDom;
    const routes = [{ id: "root", path: "/", children: [{ id: "page", path: "page" }] }];
    const context = await createStaticHandler(routes).query(new Request("http://app.test/page"));
    if (context instanceof Response) throw new Error("unexpected response");
    const a = patchedRouterDom.createStaticRouter(routes, context);
    const b = patchedRouterDom.createStaticRouter(routes, context);
    expect(b.routes).toBe(a.routes);
    expect(a.state.matches.map((m) => m.route)).toEqual([a.routes[0], a.routes[0].children![0]]);
    const want = published.createStaticRouter(routes, context);
    expect(JSON.parse(JSON.stringify(a.routes))).toEqual(JSON.parse(JSON.stringify(want.routes)));
    expect(a.state.matches.map((m) => m.pathname)).toEqual(want.state.matches.map((m) => m.pathname));
    // Another tree (another array): its own conversion.
    expect(patchedRouterDom.createStaticRouter([...routes], context).routes).not.toBe(a.routes);
  });
});

describe("callRouteLoader: a loader gets the request itself when nothing is stripped", () => {
  const call = async (url: string, singleFetch = true) => {
    const request = new Request(url);
    let got: Request | undefined;
    await patchedData.callRouteLoader({
      loadContext: {},
      loader: ({ request: r }: { request: Request }) => ((got = r), null),
      params: {},
      request,
      routeId: "r",
      singleFetch,
    });
    return { request, got: got! };
  };

  it("is the same Request for a URL with neither parameter", async () => {
    for (const url of ["http://app.test/settings", "http://app.test/settings?tab=team&q=a%20b"]) {
      const { request, got } = await call(url);
      expect(got, url).toBe(request);
    }
  });

  it("still strips ?index and ?_routes as published", async () => {
    const published = (await import(
      "@remix-run/server-runtime/dist/esm/data.js" as string
    )) as typeof patchedData;
    for (const url of [
      "http://app.test/a?index",
      "http://app.test/a?index=&x=1",
      "http://app.test/a?index=1&index=",
      "http://app.test/a?_routes=root,page&x=2",
      "http://app.test/a?x=1&index&_routes=root",
    ]) {
      const { request, got } = await call(url);
      let want: Request | undefined;
      await published.callRouteLoader({
        loadContext: {},
        loader: ({ request: r }: { request: Request }) => ((want = r), null),
        params: {},
        request: new Request(url),
        routeId: "r",
        singleFetch: true,
      });
      expect(got, url).not.toBe(request);
      expect(got.url, url).toBe(want!.url);
    }
  });
});
