import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weightFromManifest } from "../../bench/weight";
import {
  ASSETS_DIR,
  ASSETS_URL,
  BROWSER_METAFILE,
  assetFile,
  assetUrl,
  isAssetsManifest,
} from "../../shared/build-output.mjs";
import { startStack, webLogin, type Stack } from "../support/stack";

/**
 * The JavaScript budget of the pages people open from an email or a locked-down office network.
 * Read from the build this suite runs against (`npm run build` first).
 *
 * - The login page hydrates: ≤ 100 KiB gzip on a cold visit (the manifest's entry, root and route chunks;
 *   `npm run bench -- weight` confirms it in Chromium). A shared module that pulls zod or the date libraries
 *   into it fails here.
 * - Every signed-in page: ≤ 120 KiB gzip the same way (the route chain's modules and their chunks, as listed in
 *   the manifest and preloaded by the page). What only a dialog or one step needs loads when it opens (a
 *   `React.lazy` chunk, not in the manifest): the connect flow, the dialogs' Radix code, the thermostat setting
 *   form's Conform and zod, the usage pickers; and a schema only the server parses stays out of the modules
 *   components import (app/lib/submission-id.ts, the features' `*-form.ts`).
 * - The four email deep-link pages (token login, password reset, thermostat dismissal, fix-my-bill) do not
 *   hydrate at all: ≤ 10 KiB gzip of JavaScript, counted from the HTML the server really sends (every
 *   `<script src>`, every `modulepreload` and every inline script), in each of the page's states.
 */
const HYDRATED_PAGES: Record<string, string[]> = { login: ["root", "routes/login"] };
const HYDRATED_BUDGET_KIB = 100;
const SIGNED_IN_BUDGET_KIB = 120;
const EMAIL_BUDGET_KIB = 10;
const DANA = "dana@harborcoffee.test";

const gzipKib = (bytes: Buffer | string) => zlib.gzipSync(bytes).length / 1024;

/** Gzip KiB of the JavaScript an HTML page loads: external files (read from the build) plus inline scripts. */
function javascriptKib(html: string): { kib: number; files: string[]; inline: number } {
  const files = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) files.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(m[0]);
    if (href) files.add(href[1]);
  }
  let kib = 0;
  for (const f of files) kib += gzipKib(fs.readFileSync(assetFile(f)!));
  const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  for (const s of inline) kib += gzipKib(s);
  return { kib, files: [...files], inline: inline.length };
}

describe("JavaScript budget of the login page", () => {
  const forRoutes = weightFromManifest();
  for (const [page, routes] of Object.entries(HYDRATED_PAGES)) {
    it(`${page}: ≤ ${HYDRATED_BUDGET_KIB} KiB gzip`, () => {
      const kib = forRoutes(routes) / 1024;
      expect(kib).toBeGreaterThan(50); // the routes exist and React is counted
      expect(kib).toBeLessThanOrEqual(HYDRATED_BUDGET_KIB);
    });
  }
});

describe(`JavaScript budget of the signed-in pages: ≤ ${SIGNED_IN_BUDGET_KIB} KiB gzip each`, () => {
  const forRoutes = weightFromManifest();
  const signedIn = Object.keys(scriptFilesPerPage()).filter((id) => id.startsWith("routes/_app"));
  it("counts every signed-in page", () => {
    expect(signedIn).toEqual(
      expect.arrayContaining([
        "routes/_app.locations._index",
        "routes/_app.locations.$locationId.control",
        "routes/_app.locations.$locationId.usage.$usageType",
        "routes/_app.authorize-arcadia",
      ]),
    );
  });
  for (const id of new Set(["routes/_app", ...signedIn]))
    it(`${id}: ≤ ${SIGNED_IN_BUDGET_KIB} KiB gzip`, () => {
      const kib = forRoutes([id]) / 1024;
      expect(kib).toBeGreaterThan(50);
      expect(kib).toBeLessThanOrEqual(SIGNED_IN_BUDGET_KIB);
    });

  it("the connect flow loads with its dialog or its page, the provider's package and Conform with their step", () => {
    const perPage = scriptFilesPerPage();
    const holding = (members: string[]) =>
      new Set(
        allOutputs()
          .filter((o) =>
            o.inputsWithBytes.some(([i, bytes]) => bytes > 0 && members.some((m) => i.includes(m))),
          )
          .map((o) => assetUrl(o.file)!),
      );
    const flow = holding([
      "app/features/accounts/components/connect-dialog.",
      "app/features/accounts/components/connect-flow.",
      "app/ui/url-dialog-radix.",
    ]);
    const step = holding(["node_modules/@arcadia-eng/connect-react/", "node_modules/@conform-to/"]);
    expect(flow.size).toBeGreaterThan(0);
    expect(step.size).toBeGreaterThan(0);
    const preloaded = (id: string, chunks: Set<string>) => [...perPage[id]].filter((f) => chunks.has(f));
    for (const id of signedIn) {
      if (id !== "routes/_app.authorize-arcadia") expect(preloaded(id, flow), id).toEqual([]);
      // The provider's package and Conform only on a step that uses them (the setting form's, once opened).
      expect(preloaded(id, step), id).toEqual([]);
    }
  });
});

/**
 * Script files a page loads on a cold visit (fewer, larger shared chunks; each file pays its
 * response headers, and on a slow link a round trip): the manifest, the entry and its chunks, and every route
 * module of the page's route chain with its chunks, as the build manifest lists them. Signed-in pages are the
 * children of `_app` (the app shell); public pages are the others (login, health check, privacy policy…).
 */
// esbuild splits shared code by the set of routes that reach it (no barrel steers it, ADR 0020), and keeps each
// `.server` module a route imports as an empty CommonJS module it cannot drop: so a route imports its server
// code from its own feature's `.server` module, and the root from `app/server/root.server.ts`. The counts are
// 14–25 files on public pages (the health check, with its account widgets and forms, is the largest) and
// 28–37 on signed-in pages (the usage page, with its chart, tabs and date pickers, is the largest; the bill
// findings' shared rules sit in the bills feature's chunk: the email answer pages take their strings from their
// loader's data, and lib/zoned and lib/local-time do nothing at import, so no browser code keeps them), all of them listed as
// `modulepreload` in the page's HTML and fetched in parallel after the document. These bounds hold that line.
const SCRIPT_FILES_BUDGET: [string, (routeId: string) => boolean, number][] = [
  // 25: the health check (its account widgets and forms) shares the connect widget, Conform and zod with the
  // chunks loaded lazily on signed-in pages (the connect step, the thermostat setting form), and esbuild splits
  // shared code by the set of entries that reach it, lazy ones included: 4 files more, 1.6 KiB gzip more.
  ["public pages (login, health check…)", (id) => !id.startsWith("routes/_app"), 25],
  // 38: the revalidation rule the shell and the location layout share (app/lib/revalidate.ts) is a chunk of its
  // own (esbuild gives each set of importers one), the price of a location page's links not reloading the layout.
  ["signed-in pages", (id) => id.startsWith("routes/_app"), 38],
];

type Manifest = {
  entry: { module: string; imports: string[] };
  routes: Record<string, { id: string; parentId?: string; module: string; imports?: string[] }>;
};

function readManifest(dir = ASSETS_DIR): { file: string; manifest: Manifest } {
  const file = fs.readdirSync(dir).find(isAssetsManifest)!;
  const src = fs.readFileSync(path.join(dir, file), "utf8");
  const manifest = JSON.parse(src.replace(/^window\.__remixManifest=/, "").replace(/;\s*$/, "")) as Manifest;
  return { file: `${ASSETS_URL}${file}`, manifest };
}

/** Script files per page route (a route module with a default export: resource routes load nothing). */
function scriptFilesPerPage(): Record<string, Set<string>> {
  const { file, manifest } = readManifest();
  const chain = (id: string): string[] => {
    const r = manifest.routes[id];
    return r ? [...(r.parentId ? chain(r.parentId) : []), id] : [];
  };
  const pages: Record<string, Set<string>> = {};
  for (const id of Object.keys(manifest.routes)) {
    if (id === "root") continue;
    const source = ["tsx", "ts"].map((ext) => path.join("app", `${id}.${ext}`)).find((f) => fs.existsSync(f));
    if (!source || !/^export default /m.test(fs.readFileSync(source, "utf8"))) continue;
    const files = new Set<string>([file, manifest.entry.module, ...manifest.entry.imports]);
    for (const r of chain(id).map((c) => manifest.routes[c])) {
      files.add(r.module);
      for (const i of r.imports ?? []) files.add(i);
    }
    pages[id] = files;
  }
  return pages;
}

type Output = { file: string; inputs: string[]; inputsWithBytes: [string, number][] };

/** The browser build's output files and what went into each (esbuild's metafile, written by `remix build`). */
function allOutputs(): Output[] {
  const meta = JSON.parse(fs.readFileSync(BROWSER_METAFILE, "utf8")) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  return Object.entries(meta.outputs)
    .filter(([f]) => f.endsWith(".js"))
    .map(([f, o]) => ({
      file: f,
      inputs: Object.keys(o.inputs),
      inputsWithBytes: Object.entries(o.inputs).map(([i, v]) => [i, v.bytesInOutput] as [string, number]),
    }));
}

const sharedChunks = () => allOutputs().filter((o) => o.file.includes("/_shared/"));

describe("Script files per page (fewer, larger shared chunks)", () => {
  const chunks = sharedChunks();

  it("empty `.server` stubs: at most 1 shared file of about 100 bytes", () => {
    // The browser build swaps each `.server` module (and `@remix-run/node`) for an empty module; one that two
    // or more routes import becomes a ~100-byte chunk of its own, preloaded by every page of those routes.
    // One is left: config.server, imported by the migration notice and the error test hook only. Another adds
    // a file to each page of the routes that import it: a route imports its own feature's `.server` module.
    const stubs = chunks.filter(
      (c) => c.inputs.length > 0 && c.inputs.every((i) => i.startsWith("empty-module:")),
    );
    expect(stubs.length).toBeLessThanOrEqual(1);
    for (const c of stubs) expect(fs.statSync(c.file).size).toBeLessThanOrEqual(200);
  });

  it("no server code in the browser: `.server` modules, app/server and @remix-run/node only as empty modules", () => {
    const offending = new Set<string>();
    for (const c of allOutputs())
      for (const [input, bytes] of c.inputsWithBytes)
        if (bytes > 0 && !input.startsWith("empty-module:"))
          if (
            /\.server(\.[jt]sx?)?$/.test(input) ||
            input.startsWith("app/server/") ||
            /@remix-run\/node\//.test(input)
          )
            offending.add(input);
    expect([...offending]).toEqual([]);
  });

  const perPage = scriptFilesPerPage();
  it("the pages are counted", () => {
    expect(Object.keys(perPage)).toEqual(
      expect.arrayContaining(["routes/login", "routes/_app.locations._index"]),
    );
    // manifest, entry, root, the route: at least four files on any hydrated page
    for (const files of Object.values(perPage)) expect(files.size).toBeGreaterThanOrEqual(4);
  });
  for (const [pages, isPage, bound] of SCRIPT_FILES_BUDGET) {
    it(`${pages}: ≤ ${bound} script files`, () => {
      const over = Object.entries(perPage)
        .filter(([id, files]) => isPage(id) && files.size > bound)
        .map(([id, files]) => [id, files.size]);
      expect(over).toEqual([]);
    });
  }

  it("what every page loads (the entry's and the root's modules) comes in at most ten shared chunks", () => {
    // React and Remix, esbuild's runtime helpers, and the ui pieces the entry and the root use, each split by
    // the set of routes that also import it: 5 for the entry (the runtime helpers are a file of their own, 0.4
    // KiB, since the lazily loaded chunks share them), 5 more for the root (its server code is one `.server`
    // module no other route imports, so its empty stub stays inside the root's own file).
    const { manifest } = readManifest();
    expect(manifest.entry.imports.length).toBeLessThanOrEqual(5);
    expect((manifest.routes.root.imports ?? []).length).toBeLessThanOrEqual(5);
  });

  it("no public page loads the signed-in shell's modules", () => {
    // What only `routes/_app` and its children use: the shell itself, the location list's rules and the
    // accounts pieces the shell shows (the connect dialog, status badges and links).
    const members = [
      "app/features/shell/",
      "app/features/locations/locations.",
      "app/features/accounts/components/account-status-badge.",
      "app/features/accounts/components/connect-flow.",
      "app/features/accounts/components/connect-link.",
      "app/features/accounts/components/connect-dialog.",
    ];
    const chunksOfShell = allOutputs()
      .filter((o) =>
        o.inputsWithBytes.some(([i, bytes]) => bytes > 0 && members.some((m) => i.startsWith(m))),
      )
      .map((o) => assetUrl(o.file)!);
    expect(chunksOfShell.length).toBeGreaterThan(0);
    const loaded = Object.entries(perPage)
      .filter(([id]) => !id.startsWith("routes/_app"))
      .flatMap(([id, files]) => chunksOfShell.filter((c) => files.has(c)).map((c) => `${id}: ${c}`));
    expect(loaded).toEqual([]);
  });
});

describe(`JavaScript of the email deep-link pages: ≤ ${EMAIL_BUDGET_KIB} KiB gzip, no hydration`, () => {
  let stack: Stack;
  let cookie: string;
  beforeAll(async () => {
    stack = await startStack();
    cookie = await webLogin(stack.url, DANA);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** Each page in its states: [page, path, signed in, method, form, text the page must show]. */
  const PAGES: [string, string, boolean, "GET" | "POST", Record<string, string> | null, string][] = [
    ["token login", "/login/link?token=abc", false, "GET", null, "Continue to log in"],
    ["token login, invalid token", "/login/link", false, "GET", null, "Email me a new login link"],
    ["token login, refused token", "/login/link", false, "POST", { token: "nope" }, "Invalid token"],
    ["password reset", "/reset-password?token=nope", false, "GET", null, "Set a new password"],
    [
      "password reset, invalid form",
      "/reset-password?token=nope",
      false,
      "POST",
      { token: "nope", password: "x", confirmPassword: "y" },
      "Set a new password",
    ],
    [
      "thermostat dismissal",
      "/dismiss-thermostat-issue?thermostatId=1013&issueSlug=permanent_hold",
      true,
      "GET",
      null,
      "Dismiss this thermostat issue?",
    ],
    [
      "thermostat dismissal, answered",
      "/dismiss-thermostat-issue?thermostatId=1013&issueSlug=permanent_hold",
      true,
      "POST",
      { thermostatId: "1013", issueSlug: "permanent_hold" },
      "Thermostat feedback received",
    ],
    ["fix-my-bill", "/fix-my-bill/action_requested", false, "GET", null, "Help is on the way!"],
  ];

  for (const [name, p, signedIn, method, form, text] of PAGES) {
    it(`${name}: ${method} ${p}`, async () => {
      const res = await fetch(`${stack.url}${p}`, {
        method,
        headers: {
          ...(signedIn ? { cookie } : {}),
          ...(form ? { origin: stack.url, "sec-fetch-site": "same-origin" } : {}),
        },
        body: form ? new URLSearchParams(form) : undefined,
        redirect: "manual",
      });
      const html = await res.text();
      expect(html).toContain(text);
      const { kib, files } = javascriptKib(html);
      expect(files, "no React, no route chunks").toEqual([]);
      expect(html).not.toContain("__remixContext");
      expect(kib).toBeGreaterThan(0); // the inline page script (error listener) is counted
      expect(kib).toBeLessThanOrEqual(EMAIL_BUDGET_KIB);
      // Any inline script carries the response's CSP nonce.
      const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
      for (const tag of html.matchAll(/<script\b[^>]*>/g)) expect(tag[0]).toContain(`nonce="${nonce}"`);
    });
  }
});
