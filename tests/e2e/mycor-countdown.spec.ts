import { expect, test } from "./fixtures";

/** The text the countdown shows: the animated CSS content (with and without JavaScript). */
const shown = (page: import("@playwright/test").Page) =>
  page.getByTestId("countdown").evaluate(
    (p) => {
      const span = p.querySelector(".countdown");
      if (!span) return "";
      const after = getComputedStyle(span, "::after").content;
      const text = after && after !== "none" && after !== "normal" ? after.replace(/^"|"$/g, "") : "";
      return (p.textContent ?? "").replace(span.textContent ?? "", text);
    },
    undefined,
    { timeout: 1000 },
  );

test.describe("/mycor countdown", () => {
  test("counts down visibly to “1 second”, then opens the migrated application", async ({ page }) => {
    await page.route("https://mycor.energyops.test/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Migrated app</h1>" }),
    );
    // Sample from the first byte on: waiting for `load` can use up the first second on a busy machine, and with it
    // the "5 seconds" the animation shows first.
    await page.goto("/mycor", { waitUntil: "commit" });
    const seen = new Set<string>();
    // Sample the shown text until the page leaves; generous bounds, no exact timing.
    const deadline = Date.now() + 12_000;
    while (Date.now() < deadline && new URL(page.url()).pathname === "/mycor") {
      const text = await shown(page).catch(() => null);
      if (text) seen.add(text.trim());
      await page.waitForTimeout(150);
    }
    expect(seen).toContain("Taking you there in 5 seconds.");
    expect(seen).toContain("Taking you there in 1 second.");
    expect([...seen].some((t) => /\b[2-4] seconds\./.test(t))).toBe(true);
    expect([...seen].filter((t) => /\b1 seconds/.test(t))).toEqual([]);
    await expect(page).toHaveURL("https://mycor.energyops.test/", { timeout: 9000 });
  });

  test("without CSS the starting text reads as a sentence", async ({ page }) => {
    const res = await page.request.get("/mycor");
    const html = await res.text();
    expect(html).toMatch(
      /Taking you there in <span[^>]*><span class="countdown-text">5 seconds<\/span><\/span>\./,
    );
  });
});
