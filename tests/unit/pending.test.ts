import { describe, expect, it } from "vitest";
import { isSameSubmission } from "~/ui/pending";

describe("isSameSubmission", () => {
  const form = (entries: [string, string][]) => entries;
  it("is the same form pressed with the same button", () => {
    const a = form([
      ["submissionId", "1"],
      ["intent", "save"],
    ]);
    expect(
      isSameSubmission(
        a,
        form([
          ["submissionId", "1"],
          ["intent", "save"],
        ]),
      ),
    ).toBe(true);
  });
  it("tells apart two forms to one action by their submission id, and two buttons by their value", () => {
    expect(isSameSubmission(form([["submissionId", "1"]]), form([["submissionId", "2"]]))).toBe(false);
    expect(isSameSubmission(form([["intent", "confirm"]]), form([["intent", "investigate"]]))).toBe(false);
    expect(
      isSameSubmission(
        form([["a", "1"]]),
        form([
          ["a", "1"],
          ["b", "2"],
        ]),
      ),
    ).toBe(false);
  });
  it("is the same whichever place the pressed button's entry takes", () => {
    // Remix puts the button's entry where the button sits in the form; the button's own copy adds it at the end.
    expect(
      isSameSubmission(
        form([
          ["op", "remove-0"],
          ["account", "1234"],
        ]),
        form([
          ["account", "1234"],
          ["op", "remove-0"],
        ]),
      ),
    ).toBe(true);
    expect(
      isSameSubmission(
        form([
          ["a", "1"],
          ["a", "2"],
        ]),
        form([
          ["a", "1"],
          ["a", "1"],
        ]),
      ),
    ).toBe(false);
  });
  it("is nothing without a submission under way", () => {
    expect(isSameSubmission(undefined, form([["a", "1"]]))).toBe(false);
  });
});
