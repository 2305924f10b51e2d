import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { ASSETS_DIR, ASSETS_URL, assetFile, isAssetsManifest } from "../shared/build-output.mjs";

/** Gzip bytes of the JavaScript each route loads on a cold visit, from the build manifest of the tree at `root`. */
export function weightFromManifest(root = ".") {
  const dir = path.join(root, ASSETS_DIR);
  const file = fs.readdirSync(dir).find(isAssetsManifest)!;
  const src = fs.readFileSync(path.join(dir, file), "utf8");
  const manifest = JSON.parse(src.replace(/^window\.__remixManifest=/, "").replace(/;\s*$/, "")) as {
    entry: { module: string; imports: string[] };
    routes: Record<string, { id: string; parentId?: string; module: string; imports?: string[] }>;
  };
  const gz = (url: string) => zlib.gzipSync(fs.readFileSync(path.join(root, assetFile(url)!))).length;
  const chain = (id: string): string[] => {
    const r = manifest.routes[id];
    return r ? [...(r.parentId ? chain(r.parentId) : []), id] : [];
  };
  return (routeIds: string[]) => {
    const files = new Set<string>([`${ASSETS_URL}${file}`, manifest.entry.module, ...manifest.entry.imports]);
    for (const id of routeIds.flatMap(chain)) {
      const r = manifest.routes[id];
      files.add(r.module);
      for (const i of r.imports ?? []) files.add(i);
    }
    return [...files].reduce((sum, f) => sum + gz(f), 0);
  };
}
