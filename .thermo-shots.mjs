import { chromium } from "@playwright/test";
const base = process.env.BASE ?? "http://127.0.0.1:3450";
const [, , path, name, js = "1", user = "dana@harborcoffee.test", clickSel = ""] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
for (const width of [1280, 390]) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: js === "1" });
  const page = await ctx.newPage();
  if (user !== "none") {
    const res = await page.request.post(`http://127.0.0.1:3450/login?email=${encodeURIComponent(user)}`, { form: { intent: "password", email: user, password: "demo-pass-2024", next: "/" }, maxRedirects: 0 });
    if (res.status() !== 302) console.log("login", res.status());
    if (base !== "http://127.0.0.1:3450") {
      const cookies = await ctx.cookies("http://127.0.0.1:3450");
      await ctx.addCookies(cookies.map((c) => ({ ...c, domain: "127.0.0.1" })));
    }
  }
  await page.goto(base + path);
  if (clickSel) for (const s of clickSel.split("|")) await page.locator(s).first().click();
  await page.waitForTimeout(600);
  await page.screenshot({ path: `/work/wt/shots/thermostats/${name}-${width}.png`, fullPage: true });
  await ctx.close();
}
await browser.close();
