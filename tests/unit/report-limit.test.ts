import { describe, expect, it } from "vitest";
import { createReportLimiter } from "~/server/ops/report-limit";

function limiter(perKind = 3, total = 5) {
  let t = 1_000_000;
  const l = createReportLimiter({ perKind, total, windowMs: 60_000, now: () => t });
  return { l, advance: (ms: number) => (t += ms) };
}
const sent = (l: ReturnType<typeof createReportLimiter>, kind: string, n: number) =>
  Array.from({ length: n }, () => l.admit(kind)).filter((a) => a.sent).length;

describe("createReportLimiter", () => {
  it("sends at most perKind reports of one kind a window", () => {
    const { l } = limiter();
    expect(sent(l, "Error|routes/x", 200)).toBe(3);
  });

  it("other kinds keep their own share, up to the total", () => {
    const { l } = limiter();
    expect(sent(l, "a", 10)).toBe(3);
    expect(l.admit("b")).toEqual({ sent: true });
    expect(l.admit("c")).toEqual({ sent: true });
    expect(l.admit("d")).toEqual({ sent: false, reason: "total", firstDropInWindow: false });
  });

  it("says which drop is the first of the window, once", () => {
    const { l, advance } = limiter(1, 5);
    l.admit("a");
    expect(l.admit("a")).toEqual({ sent: false, reason: "kind", firstDropInWindow: true });
    expect(l.admit("a")).toEqual({ sent: false, reason: "kind", firstDropInWindow: false });
    advance(60_000);
    expect(l.admit("a")).toEqual({ sent: true });
    expect(l.admit("a")).toEqual({ sent: false, reason: "kind", firstDropInWindow: true });
  });

  it("a kind's share comes back when its window ends, not before", () => {
    const { l, advance } = limiter();
    expect(sent(l, "a", 5)).toBe(3);
    advance(59_999);
    expect(l.admit("a").sent).toBe(false);
    advance(1);
    expect(sent(l, "a", 5)).toBe(3);
  });

  it("a flood of distinct kinds is held by the total, and the kinds it remembers stay few", () => {
    const { l, advance } = limiter(3, 50);
    for (let minute = 0; minute < 10; minute++) {
      let n = 0;
      for (let i = 0; i < 10_000; i++) if (l.admit(`kind-${minute}-${i}`).sent) n++;
      expect(n).toBe(50);
      expect(l.kindsTracked()).toBeLessThanOrEqual(100);
      advance(60_000);
    }
  });
});
