// temporary (not committed): HTML bytes of pages in two trees against one 300-location api
import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import zlib from "node:zlib";
import { startServer, stopChild } from "./server";
const trees = process.argv.slice(2);
const api = spawn(process.execPath, ["--import", "tsx", path.resolve("bench/many-api.ts")], {
  env: { ...process.env, API_EXTRA_LOCATIONS: "286", LOG_LEVEL: "silent", NODE_ENV: "production" },
  stdio: ["ignore", "pipe", "inherit"],
});
const apiUrl = await new Promise<string>((resolve) => {
  readline.createInterface({ input: api.stdout! }).once("line", (l) => resolve(JSON.parse(l).url));
});
const paths = ["/locations", "/locations?sort=lastBill&dir=desc", "/locations?expanded=101", "/locations/101/control", "/grid-services", "/accounts", "/privacy-policy"];
for (const tree of trees) {
  const s = await startServer(0, { apiUrl, cwd: path.resolve(tree) });
  for (const p of paths) {
    const html = await (await fetch(s.url + p, { headers: p === "/privacy-policy" ? {} : { cookie: s.cookie } })).text();
    const b = Buffer.byteLength(html);
    console.log(`${tree}\t${p}\t${b}\t${zlib.gzipSync(html).length}\t${zlib.brotliCompressSync(html).length}`);
  }
  await s.stop();
}
await stopChild(api);
