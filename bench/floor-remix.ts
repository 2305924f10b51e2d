import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The bare Remix floor (`bench/floor-remix/`): a Remix v2 app with the product's compiler and future flags, one
 * route rendering the privacy page's elements, an entry.server rendering as the product's does (Remix's
 * default one imports `isbot`, not installed), the express adapter and no
 * middleware. Built here (a few seconds) so that it always uses the installed Remix, then started like the
 * other floors: it prints `{"port": n}`.
 */
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "floor-remix");

export function startRemixFloor(floorHtml: string) {
  const built = spawnSync("npx", ["remix", "build"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production" },
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`the bare Remix floor did not build:\n${built.stderr}`);
  return spawn(process.execPath, [path.join(dir, "server.mjs")], {
    env: { ...process.env, NODE_ENV: "production", FLOOR_HTML: floorHtml },
    stdio: ["ignore", "pipe", "inherit"],
  });
}
