import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalPath } from "~/server/http/canonical-path.server";

describe("canonicalPath", () => {
  it("leaves a canonical path as it is", () => {
    for (const path of [
      "/",
      "/login",
      "/login/link",
      "/locations/101/control",
      "/a%2Fb",
      "/caf%C3%A9",
      "/a%25",
    ])
      expect(canonicalPath(path), path).toBe(path);
  });

  it("gives every spelling Remix routes to /login the one spelling express matches", () => {
    for (const path of [
      "/login//",
      "//login",
      "/login/",
      "/%6cogin",
      "/%6C%6F%67%69%6E",
      "/./login",
      "/a/../login",
      "/../login",
      "/%2e/login",
      "/x/%2E%2E/login",
    ])
      expect(canonicalPath(path), path).toBe("/login");
    expect(canonicalPath("/login/link//")).toBe("/login/link");
  });

  it("decodes only unreserved characters, once", () => {
    expect(canonicalPath("/a%2fb")).toBe("/a%2fb");
    expect(canonicalPath("/a%252e")).toBe("/a%252e");
    expect(canonicalPath("/%7Euser%2D1%5F")).toBe("/~user-1_");
    expect(canonicalPath("/a%zz")).toBe("/a%zz");
  });

  it("never gives a target another origin could be read from", () => {
    expect(canonicalPath("//evil.test/x")).toBe("/evil.test/x");
    expect(canonicalPath("/\\evil.test")).toBe("/%5Cevil.test");
    expect(canonicalPath("/%2e%2e//evil.test")).toBe("/evil.test");
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("/", "\\", ".", "..", "%2e", "%2F", "%5c", "a", "%6c", "//"), {
          maxLength: 12,
        }),
        (parts) => {
          const result = canonicalPath(`/${parts.join("")}`)!;
          expect(result.startsWith("/")).toBe(true);
          expect(result.startsWith("//")).toBe(false);
          expect(result).not.toContain("\\");
          // Canonical once is canonical for good: a redirect never leads to another.
          expect(canonicalPath(result)).toBe(result);
        },
      ),
    );
  });

  it("refuses a target that is not a path", () => {
    expect(canonicalPath("*")).toBeNull();
    expect(canonicalPath("http://evil.test/login")).toBeNull();
    expect(canonicalPath("")).toBeNull();
  });
});
