import { expect, expectNoSeriousA11yViolations, loginAs, test, USERS } from "./fixtures";
import { ALL_PAGES } from "./pages";

test.describe("every page", () => {
  for (const p of ALL_PAGES) {
    test(`${p.path} as ${p.user ?? "visitor"}: axe clean, no CSP violation`, async ({ page }) => {
      const violations: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy|Refused to (execute|load|apply)/i.test(m.text()))
          violations.push(m.text());
      });
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (e) =>
          console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      if (p.user) await loginAs(page, USERS[p.user]);
      const res = await page.goto(p.path);
      expect(res?.status()).toBeLessThan(400);
      await page.waitForLoadState("networkidle");
      await expectNoSeriousA11yViolations(page);
      expect(violations).toEqual([]);
    });
  }
});
