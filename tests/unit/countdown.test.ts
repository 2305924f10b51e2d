import { describe, expect, it } from "vitest";
import { countdownKeyframes, secondsText } from "~/ui/countdown";

describe("countdown text", () => {
  it("says 1 second, otherwise seconds", () => {
    expect(secondsText(5)).toBe("5 seconds");
    expect(secondsText(1)).toBe("1 second");
    expect(secondsText(0)).toBe("0 seconds");
  });

  it("steps from the start down to 1 second, one step a second", () => {
    expect(countdownKeyframes("c", 5)).toBe(
      '@keyframes c{0%{content:"5 seconds"}20%{content:"4 seconds"}40%{content:"3 seconds"}60%{content:"2 seconds"}80%{content:"1 second"}100%{content:"1 second"}}',
    );
  });
});
