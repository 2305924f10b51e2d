import { chromium } from "@playwright/test";
import { signIn, startServer } from "./server";
const s = await startServer(0);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
for (let run = 0; run < 3; run++) {
  const ctx = await browser.newContext();
  await signIn(ctx, s.url);
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 562.5, downloadThroughput: (1.44 * 1024 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.addInitScript(() => {
    (window as any).__shifts = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e: any) => (window as any).__shifts.push({ t: Math.round(e.startTime), v: e.value.toFixed(3), src: (e.sources ?? []).map((x: any) => `${x.node?.nodeName}.${x.node?.className ?? ""} ${JSON.stringify(x.previousRect)}→${JSON.stringify(x.currentRect)}`) }))).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto(`${s.url}/locations/101/spending`, { waitUntil: "load", timeout: 60000 });
  await page.waitForTimeout(4000);
  console.log(JSON.stringify(await page.evaluate(() => (window as any).__shifts), null, 1));
  await ctx.close();
}
await browser.close(); await s.stop();
