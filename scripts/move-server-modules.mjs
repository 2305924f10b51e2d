#!/usr/bin/env node
// app/server/ by purpose: which folder each of its modules moved to, and the rewrite of every reference to
// them. `node scripts/move-server-modules.mjs --move` does the `git mv`s and the rewrite (once, on a tree with
// the flat layout); without `--move` it only rewrites references, for a branch that merged the move and still
// carries imports of the old paths. Rewrites import specifiers (`~/server/x`, relative paths) in app/,
// server.ts, tests/, bench/, scripts/ and the file paths written in docs/ and comments.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";

/** Module (file name in app/server/, without extension) → its folder under app/server/. */
export const MOVES = {
  // upstream/: the api client and what it needs, the user's session with the api, the guards on it.
  "answer-memo.server": "upstream",
  "api-client.server": "upstream",
  "api-error": "upstream",
  casing: "upstream",
  "passthrough.server": "upstream",
  "upstream-transport.server": "upstream",
  "upstream.server": "upstream",
  "demo-mode": "upstream",
  "session.server": "upstream",
  "guards.server": "upstream",
  // http/: what happens to a request around Remix: refusals, limits, headers, and the document's rendering.
  "bad-request.server": "http",
  "body-limit.server": "http",
  "cache-control.server": "http",
  "canonical-path.server": "http",
  "csp.server": "http",
  csrf: "http",
  "host-header.server": "http",
  "load-shed.server": "http",
  "request-id.server": "http",
  "slow-clients.server": "http",
  "remix-handler.server": "http",
  "document-body.server": "http",
  "hydration-data.server": "http",
  // ops/: running it: logs, metrics, error reports, readiness, Redis and the limits kept there.
  "logger.server": "ops",
  "metrics.server": "ops",
  "sentry.server": "ops",
  "sentry-browser.server": "ops",
  "sentry-scrub.server": "ops",
  "report-limit": "ops",
  "readiness.server": "ops",
  "redis.server": "ops",
  "rate-limit.server": "ops",
};

const ROOTS = ["app", "server.ts", "tests", "bench", "scripts", "docs", "eslint.config.js"];
const SELF = "scripts/move-server-modules.mjs";
const CODE = /\.(ts|tsx|js|mjs|cjs)$/;
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|json|css)$/;

function files(path) {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((d) =>
    d.name === "node_modules" || d.name.startsWith(".") ? [] : files(join(path, d.name)),
  );
}

const names = Object.keys(MOVES).sort((a, b) => b.length - a.length);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// A path naming a moved module from anywhere: `~/server/x`, `app/server/x.ts`, `../../app/server/x`.
const PATH = new RegExp(
  `((?:~|\\bapp|(?<![\\w.])\\.)/server/)(${names.map(escape).join("|")})(?![\\w-])`,
  "g",
);

const move = process.argv.includes("--move");
if (move) {
  for (const [name, folder] of Object.entries(MOVES)) {
    const ext = [".ts", ".tsx"].find((e) => existsSync(`app/server/${name}${e}`));
    if (!ext) continue;
    execFileSync("mkdir", ["-p", `app/server/${folder}`]);
    execFileSync("git", ["mv", `app/server/${name}${ext}`, `app/server/${folder}/${name}${ext}`]);
  }
}

const resolves = (dir, spec) =>
  ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts"].some((ext) => {
    const path = join(dir, spec + ext);
    return existsSync(path) && statSync(path).isFile();
  });

/** Where a module of app/server/ lives now, as `server/<folder>/<name>` or `server/<name>`. */
const home = (name) => (MOVES[name] ? `server/${MOVES[name]}/${name}` : `server/${name}`);

let changed = 0;
for (const file of ROOTS.flatMap(files)) {
  if (file === SELF || !TEXT.test(file)) continue;
  const before = readFileSync(file, "utf8");
  let text = before.replace(PATH, (_, prefix, name) => `${prefix}${MOVES[name]}/${name}`);
  // Relative paths in app/server/ that no longer lead to their file: rewritten from where it was.
  const inServer = file.startsWith("app/server/");
  if (inServer && CODE.test(file)) {
    const here = relative("app", dirname(file)).split("\\").join("/"); // "server" or "server/<folder>"
    text = text.replace(/(["'])(\.\.?\/[^"'\n]+)\1/g, (whole, quote, spec) => {
      // A path that still leads to a file is right (a neighbour that moved along, or already rewritten).
      if (resolves(dirname(file), spec)) return whole;
      // Otherwise it was written from app/server/, where every module was before the move.
      const target = posix.normalize(posix.join("server", spec)); // from app/, e.g. "server/session.server"
      const name = target.startsWith("server/") ? target.slice("server/".length) : null;
      if (name === null || name.includes("/")) {
        if (here === "server") return whole;
        // Outside app/server/ (shared/, say): the same file, one folder further away.
        const next = posix.relative(here, target);
        return `${quote}${next.startsWith(".") ? next : `./${next}`}${quote}`;
      }
      const now = home(name);
      const nowDir = posix.dirname(now);
      const next = nowDir === here ? `./${posix.basename(now)}` : `~/${now}`;
      return `${quote}${next}${quote}`;
    });
  }
  if (text !== before) {
    writeFileSync(file, text);
    changed++;
  }
}
console.log(`${move ? "moved, and " : ""}rewrote references in ${changed} files`);
