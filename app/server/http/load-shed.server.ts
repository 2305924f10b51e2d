import type { IncomingMessage, ServerResponse } from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";

export type ShedOptions = {
  /** Requests being answered at once above which a new one is refused. */
  maxInFlight: number;
  /** Event-loop delay (median over the last sample window, ms) above which new requests are refused; 0: off. */
  maxEventLoopDelayMs: number;
  /** Seconds the client is told to wait (Retry-After). */
  retryAfterSeconds: number;
  /** The current event-loop delay in ms; defaults to a perf_hooks monitor sampled every `sampleMs`. */
  eventLoopDelayMs?: () => number;
  sampleMs?: number;
  /** Told of each refusal and why (the metrics). */
  onShed?: (reason: "in_flight" | "event_loop") => void;
};

/**
 * Event-loop delay as the median of perf_hooks' histogram over the last window: a sustained lag (most timer
 * ticks late, the loop saturated), not one long task such as a cold start or a large export. The window's
 * reading is kept until the next one, so a request sees what the loop went through just before it arrived.
 */
export function eventLoopDelaySampler(sampleMs = 1000) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let last = 0;
  const timer = setInterval(() => {
    last = histogram.count > 0 ? histogram.percentile(50) / 1e6 : 0;
    histogram.reset();
  }, sampleMs);
  timer.unref();
  return {
    read: () => last,
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

export type Shedder = ReturnType<typeof createLoadShedder>;

/**
 * Load shedding: while too many requests are in flight, or the event loop lags, a new request is answered at
 * once with 503 and Retry-After instead of waiting in the queue. Mount it after /healthz and the static files,
 * which are never shed.
 */
export function createLoadShedder(options: ShedOptions) {
  const sampler = options.eventLoopDelayMs
    ? null
    : options.maxEventLoopDelayMs > 0
      ? eventLoopDelaySampler(options.sampleMs)
      : null;
  const lag = options.eventLoopDelayMs ?? (() => sampler?.read() ?? 0);
  let inFlight = 0;
  let shed = 0;
  const overloaded = () =>
    inFlight >= options.maxInFlight
      ? "in_flight"
      : options.maxEventLoopDelayMs > 0 && lag() > options.maxEventLoopDelayMs
        ? "event_loop"
        : null;

  const middleware = (_req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    const reason = overloaded();
    if (reason) {
      shed++;
      options.onShed?.(reason);
      const body = "The service is busy. Please try again in a few seconds.";
      res.writeHead(503, {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Length": Buffer.byteLength(body),
        "Retry-After": String(options.retryAfterSeconds),
        "Cache-Control": "no-store",
      });
      res.end(body);
      return;
    }
    inFlight++;
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      inFlight--;
    };
    res.once("finish", release);
    res.once("close", release);
    next();
  };
  return Object.assign(middleware, {
    stats: () => ({ inFlight, shed, eventLoopDelayMs: lag() }),
    stop: () => sampler?.stop(),
  });
}
