import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:3520";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless=new","--no-sandbox","--disable-gpu"] });
const ctx = await browser.newContext({ baseURL: base });
const page = await ctx.newPage();
const email = process.argv[2] || "dana@harborcoffee.test";
const res = await page.request.post(`/login?email=${encodeURIComponent(email)}`, { form: { intent: "password", email, password: "demo-pass-2024", next: "/" }, maxRedirects: 0 });
console.log("login", res.status());
for (const [w, name] of [[1280, "1280"], [390, "390"]]) {
  await page.setViewportSize({ width: w, height: 900 });
  const r = await page.goto(process.argv[3] || "/findings");
  console.log(r.status());
  await page.screenshot({ path: `/work/shots/findings/${process.argv[4] || "findings"}-${name}.png`, fullPage: w > 1000 });
  console.log("scrollWidth", await page.evaluate(() => document.documentElement.scrollWidth));
}
console.log((await page.locator("main, .content").first().innerText()).slice(0, 3000));
await browser.close();
