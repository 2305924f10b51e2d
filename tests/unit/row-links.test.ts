import { describe, expect, it } from "vitest";
import { isPlainClick } from "~/ui/row-links";

const anchor = (attrs: Record<string, string> = {}) => ({
  getAttribute: (name: string) => attrs[name] ?? null,
  hasAttribute: (name: string) => name in attrs,
});
const click = (over: Partial<Parameters<typeof isPlainClick>[0]> = {}) => ({
  defaultPrevented: false,
  button: 0,
  metaKey: false,
  altKey: false,
  ctrlKey: false,
  shiftKey: false,
  currentTarget: anchor(),
  ...over,
});

describe("row links: which clicks the router takes over", () => {
  it("a plain left click on a same-window link", () => {
    expect(isPlainClick(click())).toBe(true);
    expect(isPlainClick(click({ currentTarget: anchor({ target: "_self" }) }))).toBe(true);
  });
  it("leaves a new tab, a modifier, another button, a download or a handled click to the browser", () => {
    for (const key of ["metaKey", "altKey", "ctrlKey", "shiftKey"] as const)
      expect(isPlainClick(click({ [key]: true }))).toBe(false);
    expect(isPlainClick(click({ button: 1 }))).toBe(false);
    expect(isPlainClick(click({ currentTarget: anchor({ target: "_blank" }) }))).toBe(false);
    expect(isPlainClick(click({ currentTarget: anchor({ download: "" }) }))).toBe(false);
    expect(isPlainClick(click({ defaultPrevented: true }))).toBe(false);
  });
});
