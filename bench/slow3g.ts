/**
 * Slow 3G (Chromium's preset: 2 s round trip, 400 kbit/s each way), cold cache (a new browser context per run),
 * median of 5, per page: when the HTML had arrived (the document's responseEnd), first paint, hydration (the
 * root sets `data-hydrated` on <html>; "—" on the email pages, which never hydrate) and the number of
 * render-blocking requests (resources whose `renderBlockingStatus` is `blocking`).
 * Every page of the product a user opens: the entry pages of emails (with live links, bench/email-links.ts),
 * sign-in and every signed-in page. `BENCH_SLOW3G_ONLY=<regexp>` picks pages by name; `BENCH_SLOW3G_RUNS`
 * sets the runs per page (default 5: a full run takes about half an hour). `BENCH_SLOW3G_NGINX=h2` (or `h1`)
 * puts nginx in front with docs/deploy.md's configuration and TLS, speaking HTTP/2 (or HTTP/1.1 only), as a
 * deployment does; without it the browser talks HTTP/1.1 to the web process directly.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { makeCertificate, nginxConfig, portOpen, startNginx } from "../tests/scale/nginx";
import { emailLink } from "./email-links";
import { BENCH_PAGES } from "./pages";
import { freePort, median, signIn, startServer, table } from "./server";

const RUNS = Math.max(1, Number(process.env.BENCH_SLOW3G_RUNS ?? 5));
export const SLOW_3G = {
  offline: false,
  latency: 2000,
  downloadThroughput: 50_000,
  uploadThroughput: 50_000,
};

type Run = { html: number; paint: number; hydrated: number | null; blocking: number };
const MAX_ATTEMPTS = 10;

/** nginx with TLS in front of `upstream` (host:port), HTTP/2 on or off; answers its https base URL. */
export async function nginxInFront(upstream: string | string[], protocol: "h1" | "h2") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-nginx-"));
  fs.chmodSync(dir, 0o755);
  const cert = makeCertificate(dir);
  const port = await freePort();
  const config = nginxConfig({
    listen: `127.0.0.1:${port}`,
    serverName: "localhost",
    upstreams: [upstream].flat(),
    certFile: cert.certFile,
    keyFile: cert.keyFile,
  });
  const nginx = startNginx(dir, protocol === "h2" ? config : config.replace(" ssl http2;", " ssl;"));
  for (let i = 0; i < 100 && !(await portOpen(port)); i++) await new Promise((r) => setTimeout(r, 100));
  return {
    url: `https://localhost:${port}`,
    /** nginx's master process (its workers are its children). */
    pid: nginx.child.pid!,
    stop: async () => {
      await nginx.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function slow3g() {
  const only = process.env.BENCH_SLOW3G_ONLY ? new RegExp(process.env.BENCH_SLOW3G_ONLY) : null;
  const pages = BENCH_PAGES.filter((p) => !only || only.test(p.name));
  // The test hooks run the notification jobs that write the alert emails (bench/email-links.ts).
  const via = process.env.BENCH_SLOW3G_NGINX as "h1" | "h2" | undefined;
  const s = await startServer(0, {
    env: { ENABLE_TEST_HOOKS: "true", NOTIFICATION_INTERVAL_MS: "0", ...(via ? { TRUST_PROXY: "1" } : {}) },
  });
  const front = via ? await nginxInFront(s.url.replace("http://", ""), via) : null;
  const base = front?.url ?? s.url;
  const launch = () =>
    chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless=new", "--no-sandbox", "--disable-gpu"],
    });
  let browser = await launch();
  const rows: (string | number)[][] = [
    [
      "page",
      "HTML arrived ms",
      "first paint ms",
      "paint − HTML ms",
      "hydrated ms",
      "render-blocking requests",
    ],
  ];
  try {
    for (const p of pages) {
      const path = p.mail ? await emailLink(s, p.mail) : p.path;
      const runs: Run[] = [];
      let failures = 0;
      for (let run = 0; run < RUNS; run++) {
        if (!browser.isConnected()) browser = await launch();
        const ctx = await browser.newContext({ ignoreHTTPSErrors: true });
        if (p.auth) await signIn(ctx, base);
        const page = await ctx.newPage();
        const cdp = await ctx.newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.emulateNetworkConditions", SLOW_3G);
        // A run whose browser went away (a busy machine) is measured again.
        const loaded = await page
          .goto(`${base}${path}`, { waitUntil: "load", timeout: 120_000 })
          .then(() => true)
          .catch(() => false);
        if (!loaded) {
          await ctx.close().catch(() => undefined);
          if (++failures > MAX_ATTEMPTS) throw new Error(`${p.name}: the page did not load`);
          run--;
          continue;
        }
        // Hydration comes after the load event, once the scripts have run: poll for it (at most 40 s) unless the
        // page ships no module script (the email pages).
        const hydrates = await page.evaluate(() => Boolean(document.querySelector("script[type=module]")));
        const hydrated = hydrates
          ? await page
              .waitForFunction(
                () => (document.documentElement.dataset.hydrated ? performance.now() : 0),
                null,
                {
                  polling: 50,
                  timeout: 40_000,
                },
              )
              .then((h) => h.jsonValue())
              .catch(() => null)
          : null;
        // A page that never hydrates is read at its load event, which can come before the first paint is
        // presented (its entry is then not yet written).
        await page
          .waitForFunction(() => performance.getEntriesByName("first-paint").length > 0, null, {
            polling: 50,
            timeout: 10_000,
          })
          .catch(() => undefined);
        runs.push({
          hydrated,
          ...(await page.evaluate(() => {
            const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
            const paint = performance.getEntriesByName("first-paint")[0]?.startTime ?? NaN;
            const resources = performance.getEntriesByType("resource") as (PerformanceResourceTiming & {
              renderBlockingStatus?: string;
            })[];
            return {
              html: nav.responseEnd,
              paint,
              blocking: resources.filter((r) => r.renderBlockingStatus === "blocking").length,
            };
          })),
        });
        await ctx.close();
      }
      const hydrated = runs.map((r) => r.hydrated).filter((h): h is number => h !== null);
      rows.push([
        p.name,
        median(runs.map((r) => r.html)).toFixed(0),
        median(runs.map((r) => r.paint)).toFixed(0),
        median(runs.map((r) => r.paint - r.html)).toFixed(0),
        hydrated.length === runs.length ? median(hydrated).toFixed(0) : "—",
        median(runs.map((r) => r.blocking)),
      ]);
      // Each page as it is measured: a long run that stops early still shows what it measured.
      console.error(rows[rows.length - 1].join(" | "));
    }
  } finally {
    await browser.close();
    await front?.stop();
    await s.stop();
  }
  const over = via ? `, through nginx (${via === "h2" ? "HTTP/2" : "HTTP/1.1"})` : "";
  console.log(`\n## Slow 3G (2 s RTT, 400 kbit/s), cold cache, median of ${RUNS}${over}\n`);
  console.log(table(rows));
}
