import { expect, test } from "./fixtures";

/**
 * The text the countdown shows at each of `times` (ms into its animation): the CSS animation of the ::after
 * content is paused and moved to each instant in turn, then set going again where it was. Reading it so does not
 * depend on how busy the machine is (sampling it in real time missed a second now and then).
 */
const shownAt = (page: import("@playwright/test").Page, times: number[]) =>
  page.getByTestId("countdown").evaluate((p, at) => {
    const span = p.querySelector(".countdown")!;
    const anim = document
      .getAnimations()
      .find((a) => (a.effect as KeyframeEffect | null)?.target === span) as CSSAnimation | undefined;
    if (!anim) throw new Error("no countdown animation");
    const was = anim.currentTime;
    anim.pause();
    const texts = at.map((t) => {
      anim.currentTime = t;
      const after = getComputedStyle(span, "::after").content;
      const text = after && after !== "none" && after !== "normal" ? after.replace(/^"|"$/g, "") : "";
      return (p.textContent ?? "").replace(span.textContent ?? "", text).trim();
    });
    anim.currentTime = was;
    anim.play();
    return texts;
  }, times);

test.describe("/mycor countdown", () => {
  test("counts down visibly to “1 second”, then opens the migrated application", async ({ page }) => {
    await page.route("https://mycor.energyops.test/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Migrated app</h1>" }),
    );
    await page.goto("/mycor", { waitUntil: "commit" });
    expect(await shownAt(page, [0, 500, 1500, 2500, 3500, 4500, 4999])).toEqual([
      "Taking you there in 5 seconds.",
      "Taking you there in 5 seconds.",
      "Taking you there in 4 seconds.",
      "Taking you there in 3 seconds.",
      "Taking you there in 2 seconds.",
      "Taking you there in 1 second.",
      "Taking you there in 1 second.",
    ]);
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
