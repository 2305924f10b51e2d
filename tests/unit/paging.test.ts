import { describe, expect, it } from "vitest";
import { pageOf } from "~/lib/paging";

describe("pageOf", () => {
  const rows = Array.from({ length: 7 }, (_, i) => i + 1);

  it("slices the page asked for and says how many pages there are", () => {
    expect(pageOf(rows, 2, 3)).toEqual({ rows: [4, 5, 6], page: 2, pages: 3, matched: 7 });
    expect(pageOf(rows, 3, 3).rows).toEqual([7]);
  });

  it("clamps a page past the end to the last, and below 1 to the first", () => {
    expect(pageOf(rows, 9, 3)).toMatchObject({ rows: [7], page: 3 });
    expect(pageOf(rows, 0, 3)).toMatchObject({ rows: [1, 2, 3], page: 1 });
  });

  it("makes an empty list one empty page", () => {
    expect(pageOf([], 4, 3)).toEqual({ rows: [], page: 1, pages: 1, matched: 0 });
  });
});
