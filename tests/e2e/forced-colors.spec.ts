import { expect, loginAs, ready, test, USERS } from "./fixtures";

/** Windows high contrast (forced colours): toggles and the selected tab stay visible and distinct. */
test.describe("forced colours", () => {
  test("settings toggles show on and off, and the selected tab is marked", async ({ page }, info) => {
    await page.emulateMedia({ forcedColors: "active" });
    await loginAs(page, USERS.dana);
    await page.goto("/settings");
    await ready(page, info);
    const switches = page.getByRole("switch");
    expect(await switches.count()).toBeGreaterThan(1);
    // Each toggle in both states (the state is styled from aria-checked; flipped in the page only, not saved):
    // an outlined track, a knob unlike the track, and "on" unlike "off".
    const looks = await switches.evaluateAll((els) =>
      els.map((el) => {
        const track = el.querySelector(".switch-track")!;
        const read = () => {
          const t = getComputedStyle(track);
          return {
            border: `${t.borderTopWidth} ${t.borderTopStyle}`,
            track: t.backgroundColor,
            knob: getComputedStyle(track, "::after").backgroundColor,
          };
        };
        const was = el.getAttribute("aria-checked");
        el.setAttribute("aria-checked", "true");
        const on = read();
        el.setAttribute("aria-checked", "false");
        const off = read();
        el.setAttribute("aria-checked", was ?? "false");
        return { on, off };
      }),
    );
    for (const { on, off } of looks) {
      for (const state of [on, off]) {
        expect(state.border).not.toMatch(/^0px|none$/);
        expect(state.knob).not.toBe(state.track);
      }
      expect(on.track).not.toBe(off.track);
    }
    // Only the selected tab is underlined: the others' underline is the page's own colour.
    const look = (name: string) =>
      page.getByRole("tab", { name }).evaluate((el) => {
        const s = getComputedStyle(el);
        const probe = document.createElement("span");
        probe.style.color = "Canvas";
        document.body.append(probe);
        const page = getComputedStyle(probe).color;
        probe.remove();
        return { line: s.borderBottomColor, page };
      });
    const selected = await look("My Preferences");
    const other = await look("Team");
    expect(selected.line).not.toBe(other.line);
    expect(selected.line).not.toBe(selected.page);
    expect(other.line).toBe(other.page);
  });
});
