/**
 * `npx tsx bench/hydration-ab.ts <tree A> <tree B> [path]` (both built): when a signed-in page has hydrated on
 * Slow 3G through the deployment's nginx (HTTP/2, TLS, docs/deploy.md's configuration), for two builds side by
 * side. Default path: the control room of a location (`/locations/105/control`, bench/pages.ts).
 * Each tree's production server runs with its own embedded api behind its own nginx; a run is a new browser
 * context (cold cache) signed in as Dana, Chromium's Slow 3G preset through CDP
 * `Network.emulateNetworkConditions` (2 s round trip, 400 kbit/s each way), until the root sets `data-hydrated`
 * on <html>. Runs alternate A, B, B, A… (BENCH_HYDRATION_RUNS per tree, default 5), so the machine's load
 * falls on both alike. Per tree: the median hydration time, the spread, the JavaScript the page loaded (script
 * requests, encoded bytes as the browser's network stack counted them, headers included). Hydration is not
 * only the network: scripts must also run, so on a loaded machine compare A with B of one sitting only.
 */
import path from "node:path";
import { chromium } from "@playwright/test";
import { median, signIn, startServer, table } from "./server";
import { nginxInFront, SLOW_3G } from "./slow3g";

const [treeA, treeB, pagePath = "/locations/105/control"] = process.argv.slice(2);
if (!treeA || !treeB) {
  console.error("usage: npx tsx bench/hydration-ab.ts <tree A> <tree B> [path]");
  process.exit(2);
}
const RUNS = Math.max(1, Number(process.env.BENCH_HYDRATION_RUNS ?? 5));

type Run = { hydrated: number; html: number; scripts: number; kib: number };

const stacks: { stop(): Promise<void> }[] = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu"],
});
try {
  const bases: string[] = [];
  for (const tree of [treeA, treeB]) {
    const s = await startServer(0, { cwd: path.resolve(tree), env: { TRUST_PROXY: "1" } });
    stacks.push(s);
    const front = await nginxInFront(s.url.replace("http://", ""), "h2");
    stacks.push(front);
    bases.push(front.url);
  }
  const measure = async (base: string): Promise<Run> => {
    const ctx = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      await signIn(ctx, base);
      const page = await ctx.newPage();
      const cdp = await ctx.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", SLOW_3G);
      const scripts = new Set<string>();
      let bytes = 0;
      cdp.on("Network.requestWillBeSent", (e) => {
        if (e.type === "Script") scripts.add(e.requestId);
      });
      cdp.on("Network.loadingFinished", (e) => {
        if (scripts.has(e.requestId)) bytes += e.encodedDataLength;
      });
      await page.goto(`${base}${pagePath}`, { waitUntil: "commit", timeout: 120_000 });
      const hydrated = await page
        .waitForFunction(() => (document.documentElement.dataset.hydrated ? performance.now() : 0), null, {
          polling: 50,
          timeout: 120_000,
        })
        .then((h) => h.jsonValue());
      const html = await page.evaluate(
        () => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).responseEnd,
      );
      return { hydrated, html, scripts: scripts.size, kib: bytes / 1024 };
    } finally {
      await ctx.close();
    }
  };
  const runs: Run[][] = [[], []];
  for (let r = 0; r < RUNS; r++)
    for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const m = await measure(bases[i]);
      runs[i].push(m);
      console.error(`${"AB"[i]} run ${r + 1}: hydrated ${m.hydrated.toFixed(0)} ms`);
    }
  const rows: (string | number)[][] = [
    ["tree", "hydrated ms (median)", "runs ms", "HTML arrived ms", "script requests", "JS KiB on the wire"],
  ];
  for (const [i, tree] of [treeA, treeB].entries()) {
    const rs = runs[i];
    rows.push([
      `${"AB"[i]}: ${tree}`,
      median(rs.map((r) => r.hydrated)).toFixed(0),
      rs.map((r) => r.hydrated.toFixed(0)).join(" "),
      median(rs.map((r) => r.html)).toFixed(0),
      median(rs.map((r) => r.scripts)),
      median(rs.map((r) => r.kib)).toFixed(1),
    ]);
  }
  console.log(
    `\n## Hydration of ${pagePath} on Slow 3G through nginx (HTTP/2), cold cache, ${RUNS} runs a tree\n`,
  );
  console.log(table(rows));
} finally {
  await browser.close();
  for (const s of stacks.reverse()) await s.stop();
}
