declare module "autocannon" {
  type Result = {
    requests: { average: number; total?: number };
    /** Bytes received, headers included. */
    throughput: { total: number };
    /** Milliseconds; autocannon has no p95: p90 and p97_5 bracket it. */
    latency: { p50: number; p90: number; p97_5: number; p99: number };
    errors: number;
    non2xx: number;
    statusCodeStats?: Record<string, { count: number }>;
  };
  export default function autocannon(opts: {
    url: string;
    connections: number;
    /** Seconds before a request counts as an error (default 10). */
    timeout?: number;
    /** Seconds to run for (or until `amount` requests). */
    duration?: number;
    /** Requests to send in all. */
    amount?: number;
    headers?: Record<string, string>;
    /** Each connection sends these in turn, over and over (instead of `url`'s path and `headers`). */
    requests?: { method?: string; path: string; headers?: Record<string, string> }[];
  }): Promise<Result>;
}
