/**
 * The data floor of the CPU bench: a bare Node server that, for `GET /<n>`, makes page n's upstream GETs (the
 * calls the product made for that page, recorded by the bench, with the same api session cookie) in parallel
 * and answers their JSON bodies as one array. No framework, no parsing: what any server must at least spend
 * to fetch that page's data. FLOOR_CALLS (a JSON file): `[[{ url, cookie }…] …]` one list per page.
 *
 * It makes them with undici's `request` on a keep-alive Agent, the HTTP client the product uses
 * (app/server/upstream/upstream-transport.server.ts): the cheapest client we know, so that the floor stays a floor. Until
 * 2026-11-25 both used the global `fetch`, which costs about 4× as much CPU per call.
 */
import fs from "node:fs";
import http from "node:http";
import { Agent, request } from "undici";

type Call = { url: string; cookie?: string };
const pages = JSON.parse(fs.readFileSync(process.env.FLOOR_CALLS!, "utf8")) as Call[][];
const dispatcher = new Agent({ keepAliveTimeout: 4_000 });

const server = http.createServer((req, res) => {
  const calls = pages[Number((req.url ?? "/").slice(1))];
  if (!calls) {
    res.writeHead(404).end();
    return;
  }
  Promise.all(
    calls.map((c) =>
      request(c.url, {
        dispatcher,
        headers: { accept: "application/json", ...(c.cookie ? { cookie: c.cookie } : {}) },
      }).then((r) => r.body.text()),
    ),
  ).then(
    (bodies) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`[${bodies.join(",")}]`);
    },
    () => res.writeHead(502).end(),
  );
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
