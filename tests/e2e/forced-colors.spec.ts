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

test("forced colours: the usage chart's legend swatches stay visible", async ({ asDana: page }, info) => {
  await page.emulateMedia({ forcedColors: "active" });
  await page.goto("/locations/104/usage/consumption");
  await ready(page, info);
  const swatches = page.locator(".chart-legend .swatch");
  expect(await swatches.count()).toBeGreaterThan(1);
  const looks = await swatches.evaluateAll((els) => {
    const probe = document.createElement("span");
    probe.style.color = "Canvas";
    document.body.append(probe);
    const canvas = getComputedStyle(probe).color;
    probe.remove();
    return els.map((el) => {
      const s = getComputedStyle(el);
      const sides = [s.borderTop, s.borderRight, s.borderBottom, s.borderLeft];
      // Seen if it is filled with a colour other than the page's, or has a border of another colour.
      const filled = s.backgroundColor !== canvas && s.backgroundColor !== "rgba(0, 0, 0, 0)";
      const outlined = sides.some((b) => !/^0px|none/.test(b) && !b.includes(canvas));
      return { cls: el.className, filled, outlined };
    });
  });
  for (const l of looks) expect(l.filled || l.outlined, l.cls).toBe(true);
});
