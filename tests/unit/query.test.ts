import { describe, expect, it } from "vitest";
import { withQuery } from "~/lib/query";

describe("withQuery", () => {
  it("sets, replaces in place and appends parameters", () => {
    expect(withQuery("?q=pike&sort=name", { sort: "email", dir: "desc" })).toBe(
      "?q=pike&sort=email&dir=desc",
    );
    expect(withQuery("q=pike", { page: 2 })).toBe("?q=pike&page=2");
  });

  it("removes a parameter given null, undefined or an empty string", () => {
    expect(withQuery("?a=1&b=2&c=3&d=4", { a: null, b: undefined, c: "" })).toBe("?d=4");
  });

  it("answers an empty string when nothing is left, so pathname + query is a clean link", () => {
    expect(withQuery("?connect=1", { connect: null })).toBe("");
    expect(withQuery("")).toBe("");
    expect(`/locations${withQuery("?expanded=3", { expanded: null })}`).toBe("/locations");
  });

  it("keeps repeated parameters it does not change, and encodes values", () => {
    expect(withQuery("?account=1&account=2&step=x", { step: "a b&c" })).toBe(
      "?account=1&account=2&step=a+b%26c",
    );
    expect(withQuery(new URLSearchParams({ tab: "team" }), { edit: 4 })).toBe("?tab=team&edit=4");
  });

  it("does not change the parameters it was given", () => {
    const params = new URLSearchParams("a=1");
    withQuery(params, { a: null });
    expect(params.get("a")).toBe("1");
  });
});
