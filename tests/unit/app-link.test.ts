import { describe, expect, it } from "vitest";
import { isCurrentPath, leaveToBrowser } from "~/ui/app-link";

const click = {
  defaultPrevented: false,
  button: 0,
  metaKey: false,
  altKey: false,
  ctrlKey: false,
  shiftKey: false,
};
const anchor = (o: { target?: string; download?: boolean; origin?: string } = {}) => ({
  target: o.target ?? "",
  origin: o.origin ?? "https://app.test",
  hasAttribute: (name: string) => name === "download" && Boolean(o.download),
});

describe("AppLink click handling", () => {
  it("navigates client-side on a plain left click to this site", () => {
    expect(leaveToBrowser(click, anchor(), "https://app.test")).toBe(false);
    expect(leaveToBrowser(click, anchor({ target: "_self" }), "https://app.test")).toBe(false);
  });

  it("leaves new-tab, modified and non-primary clicks to the browser", () => {
    for (const k of ["metaKey", "altKey", "ctrlKey", "shiftKey"] as const)
      expect(leaveToBrowser({ ...click, [k]: true }, anchor(), "https://app.test")).toBe(true);
    expect(leaveToBrowser({ ...click, button: 1 }, anchor(), "https://app.test")).toBe(true);
    expect(leaveToBrowser({ ...click, defaultPrevented: true }, anchor(), "https://app.test")).toBe(true);
  });

  it("leaves downloads, other targets and other sites to the browser", () => {
    expect(leaveToBrowser(click, anchor({ target: "_blank" }), "https://app.test")).toBe(true);
    expect(leaveToBrowser(click, anchor({ download: true }), "https://app.test")).toBe(true);
    expect(leaveToBrowser(click, anchor({ origin: "https://elsewhere.test" }), "https://app.test")).toBe(
      true,
    );
  });
});

describe("isCurrentPath (the shell's section links)", () => {
  it("marks the page itself and the pages below it, as a NavLink does", () => {
    expect(isCurrentPath("/settings", "/settings")).toBe(true);
    expect(isCurrentPath("/locations/101/usage/demand/extra", "/locations/101/usage/demand")).toBe(true);
    expect(isCurrentPath("/Settings", "/settings")).toBe(true);
  });

  it("does not mark a sibling that only shares a prefix, or a parent", () => {
    expect(isCurrentPath("/settings-old", "/settings")).toBe(false);
    expect(isCurrentPath("/locations/101/usage/consumption", "/locations/101/usage/demand")).toBe(false);
    expect(isCurrentPath("/locations/101", "/locations/101/control")).toBe(false);
    expect(isCurrentPath("/locations/1012/control", "/locations/101/control")).toBe(false);
  });
});
