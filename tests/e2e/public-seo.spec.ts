import { expect, test } from "./fixtures";

test.describe("public pages for search engines", () => {
  test("robots.txt is public: it opens the public pages and keeps the application out", async ({ page }) => {
    const res = await page.request.get("/robots.txt", { maxRedirects: 0 });
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^text\/plain/);
    const lines = (await res.text()).split("\n");
    expect(lines[0]).toBe("User-agent: *");
    for (const path of ["/login", "/privacy-policy", "/free-bill-health-check", "/mycor"]) {
      expect(lines).toContain(`Allow: ${path}`);
    }
    expect(lines).toContain("Disallow: /login/");
    expect(lines).toContain("Disallow: /");
  });

  for (const path of ["/login", "/privacy-policy", "/free-bill-health-check", "/mycor"]) {
    test(`${path} has a meta description`, async ({ page }) => {
      await page.goto(path);
      const content = await page.locator('head meta[name="description"]').getAttribute("content");
      expect(content?.trim().length ?? 0).toBeGreaterThan(20);
    });
  }
});
