import { describe, expect, it } from "vitest";
import { loginRedirectUrl, safeRedirect } from "~/server/safe-redirect";

describe("safeRedirect", () => {
  it.each([
    ["/locations", "/locations"],
    ["/locations/101/control?tab=issues", "/locations/101/control?tab=issues"],
    ["/a#b", "/a#b"],
  ])("keeps the same-origin path %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/",
    "http:/evil.example",
    "javascript:alert(1)",
    "%2F%2Fevil.example",
    "/%2F%2Fevil.example",
    "%2f%5cevil.example",
    "/%5Cevil.example",
    "/\tevil",
    "/\u0000x",
    "evil.example",
    "",
    null,
    undefined,
    "x".repeat(3000),
    "/%E0%A4%A",
  ])("refuses %j", (input) => {
    expect(safeRedirect(input as string)).toBe("/");
  });

  it("uses the fallback", () => {
    expect(safeRedirect("//x", "/locations")).toBe("/locations");
  });

  it("builds login URLs with next", () => {
    expect(loginRedirectUrl("http://h/locations?sort=name")).toBe("/login?next=%2Flocations%3Fsort%3Dname");
    expect(loginRedirectUrl("http://h/")).toBe("/login");
    expect(loginRedirectUrl("http://h/locations/101/control.data")).toBe("/login?next=%2Flocations%2F101%2Fcontrol");
  });
});
