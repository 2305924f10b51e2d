// Screenshots of pages at desktop (1280px) and phone (390px) widths, for looking at what we build.
// Usage: node scripts/screenshots.mjs <baseUrl> <outDir> <email|-> <path> [<path> …]
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const [baseUrl, outDir, email, ...paths] = process.argv.slice(2);
fs.mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
  ],
});
for (const width of [1280, 390]) {
  const ctx = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } });
  const page = await ctx.newPage();
  if (email && email !== "-") {
    const res = await page.request.post(`${baseUrl}/login?email=${encodeURIComponent(email)}`, {
      form: { intent: "password", email, password: "demo-pass-2024", next: "/" },
      maxRedirects: 0,
    });
    if (res.status() !== 302) throw new Error(`login failed: ${res.status()}`);
  }
  for (const p of paths) {
    await page.goto(`${baseUrl}${p}`);
    await page.waitForLoadState("networkidle");
    const name = `${p.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "root"}-${width}.png`;
    await page.screenshot({ path: path.join(outDir, name), fullPage: true });
    console.log(path.join(outDir, name));
  }
  await ctx.close();
}
await browser.close();
