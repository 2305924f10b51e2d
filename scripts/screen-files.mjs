#!/usr/bin/env node
// How many of our files (and lines) sit behind a screen: its route module plus every app module the route
// imports, directly or through other modules, as the server build resolved them. Repeatable after any
// change: `npm run build && node scripts/screen-files.mjs [--list] [screen…]`.
//
// The source is esbuild's metafile of the Remix server build (SERVER_METAFILE, shared/build-output.mjs): it holds the
// imports esbuild followed, so type-only imports (gone from the output) and node_modules are not counted,
// and a barrel counts with everything it re-exports (the bundler reads all of it). Parent layout routes
// (`root.tsx`, `_app.tsx`) are left out: they are behind every page alike.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { SERVER_METAFILE } from "../shared/build-output.mjs";

const SCREENS = {
  login: "app/routes/login.tsx",
  settings: "app/routes/_app.settings.tsx",
  control: "app/routes/_app.locations.$locationId.control.tsx",
};

const args = process.argv.slice(2);
const list = args.includes("--list");
const wanted = args.filter((a) => !a.startsWith("--"));
const metafilePath = resolve(SERVER_METAFILE);
if (!existsSync(metafilePath)) {
  console.error(`${SERVER_METAFILE} is missing: run \`npm run build\` first`);
  process.exit(1);
}
const { inputs } = JSON.parse(readFileSync(metafilePath, "utf8"));

const isOurs = (path) => path.startsWith("app/") && !path.includes("node_modules");

function behind(route) {
  if (!inputs[route]) throw new Error(`${route} is not in the server build`);
  const seen = new Set([route]);
  const queue = [route];
  while (queue.length > 0) {
    const file = queue.pop();
    for (const imported of inputs[file]?.imports ?? []) {
      if (imported.external || !isOurs(imported.path) || seen.has(imported.path)) continue;
      seen.add(imported.path);
      queue.push(imported.path);
    }
  }
  return [...seen].sort();
}

const lines = (file) => {
  const text = readFileSync(file, "utf8");
  return text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
};

// A screen's own files are its route and its areas' feature modules; the rest is shared core and ui.
const isOwn = (file) => file.startsWith("app/routes/") || file.startsWith("app/features/");

const rows = [];
for (const [name, route] of Object.entries(SCREENS)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const files = behind(route);
  const own = files.filter(isOwn);
  const shared = files.filter((f) => !isOwn(f));
  const sum = (fs) => fs.reduce((n, f) => n + lines(f), 0);
  rows.push({
    screen: name,
    files: files.length,
    lines: sum(files),
    "route+feature files": own.length,
    "route+feature lines": sum(own),
    "shared files": shared.length,
    "shared lines": sum(shared),
  });
  if (list) {
    console.log(`\n${name} (${route}):`);
    for (const f of files) console.log(`  ${String(lines(f)).padStart(5)}  ${f}`);
  }
}
console.table(rows);
