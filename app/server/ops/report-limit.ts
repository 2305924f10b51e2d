/**
 * How many error reports may go out: at most `perKind` a window for each kind of failure (the error's type and
 * route, or its fingerprint), and at most `total` a window over all kinds. A flood of one failure (a stranger
 * repeating a request that fails, an upstream outage) then costs a handful of events a minute instead of one
 * per request: nobody is paged a thousand times and the reporting quota lasts. Pure: the clock is given.
 */

export type ReportLimits = {
  /** Reports of one kind per window. */
  perKind: number;
  /** Reports of every kind together per window. */
  total: number;
  windowMs?: number;
  now?: () => number;
};

/** Why a report was not sent: its kind had had its share, or every kind together had. */
export type DropReason = "kind" | "total";

export type Admission =
  | { sent: true }
  | {
      sent: false;
      reason: DropReason;
      /** The first report dropped since the window of the total began: the moment to say so in the log. */
      firstDropInWindow: boolean;
    };

type Window = { start: number; count: number };

export function createReportLimiter({ perKind, total, windowMs = 60_000, now = Date.now }: ReportLimits) {
  // Each kind's window starts with its first report; the total's with the first report after the last one ended.
  const kinds = new Map<string, Window>();
  let all: Window = { start: -Infinity, count: 0 };
  let droppedInWindow = 0;

  const current = (w: Window | undefined, t: number) =>
    w && t - w.start < windowMs ? w : { start: t, count: 0 };

  /** Forgets the kinds whose window has ended (kept few: at most `total` kinds are admitted a window). */
  function prune(t: number) {
    for (const [kind, w] of kinds) if (t - w.start >= windowMs) kinds.delete(kind);
  }

  return {
    /** Whether one more report of `kind` may go out now; when it may, it is counted. */
    admit(kind: string): Admission {
      const t = now();
      const next = current(all, t);
      if (next !== all) {
        all = next;
        droppedInWindow = 0;
        prune(t);
      }
      const mine = current(kinds.get(kind), t);
      const reason: DropReason | null = mine.count >= perKind ? "kind" : all.count >= total ? "total" : null;
      if (reason) return { sent: false, reason, firstDropInWindow: droppedInWindow++ === 0 };
      mine.count++;
      all.count++;
      kinds.set(kind, mine);
      return { sent: true };
    },
    /** Kinds being counted now (a test's view of the memory it holds). */
    kindsTracked: () => kinds.size,
  };
}
