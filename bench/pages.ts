/**
 * The pages the benchmarks measure, signed in as the client admin of Harbor Coffee Co. (ids from the seed).
 * `rt` marks pages measured for upstream round trips; `weight` the routes whose JavaScript is weighed;
 * `throughput` the pages loaded with autocannon; `lcp` the pages measured on a slow network.
 */
export type BenchPage = { name: string; path: string; auth: boolean; rt?: boolean; throughput?: boolean; lcp?: boolean; chart?: boolean; emailLink?: boolean };

export const BENCH_PAGES: BenchPage[] = [
  { name: "login", path: "/login", auth: false, rt: false, lcp: true },
  { name: "login options", path: "/login?email=dana%40harborcoffee.test", auth: false, rt: true },
  { name: "token login", path: "/login/link?token=abc", auth: false, emailLink: true },
  { name: "reset password", path: "/reset-password?token=abc", auth: false, emailLink: true, rt: true },
  { name: "locations", path: "/locations", auth: true, rt: true, throughput: true, lcp: true },
];
