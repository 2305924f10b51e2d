/**
 * The pages the benchmarks measure, signed in as the client admin of Harbor Coffee Co. (ids from the seed).
 * `rt` marks pages measured for upstream round trips; `weight` the routes whose JavaScript is weighed;
 * `throughput` the pages loaded with autocannon; `lcp` the pages measured on a slow network.
 */
export type BenchPage = {
  name: string;
  path: string;
  auth: boolean;
  rt?: boolean;
  throughput?: boolean;
  lcp?: boolean;
  chart?: boolean;
  emailLink?: boolean;
  /**
   * The Slow 3G run opens a live link of this email instead of `path` (bench/email-links.ts): a made-up token
   * shows the refusal, not the page the email's reader sees.
   */
  mail?: MailLink;
};

export type MailLink = "login link" | "password reset" | "bill alert" | "comfort alert";

export const BENCH_PAGES: BenchPage[] = [
  { name: "login", path: "/login", auth: false, rt: false, lcp: true },
  { name: "login options", path: "/login?email=dana%40harborcoffee.test", auth: false, rt: true },
  {
    name: "token login",
    path: "/login/link?token=abc",
    auth: false,
    emailLink: true,
    mail: "login link",
  },
  {
    name: "reset password",
    path: "/reset-password?token=abc",
    auth: false,
    emailLink: true,
    rt: true,
    mail: "password reset",
  },
  { name: "locations", path: "/locations", auth: true, rt: true, throughput: true, lcp: true },
  { name: "control room", path: "/locations/105/control", auth: true, rt: true, throughput: true, lcp: true },
  {
    name: "spending",
    path: "/locations/101/spending",
    auth: true,
    rt: true,
    throughput: true,
    lcp: true,
    chart: true,
  },
  {
    name: "usage (month)",
    path: "/locations/104/usage/demand?period=month&start=2026-10-01",
    auth: true,
    rt: true,
    chart: true,
  },
  { name: "grid services", path: "/grid-services", auth: true, rt: true },
  {
    name: "compliance report",
    path: "/override-report?period=month&start=2026-10-01",
    auth: true,
    rt: true,
    chart: true,
  },
  {
    name: "compliance, one thermostat",
    path: "/override-report/1003?period=month&start=2026-10-01",
    auth: true,
    rt: true,
    chart: true,
  },
  { name: "accounts", path: "/accounts", auth: true, rt: true },
  { name: "connect utility accounts", path: "/authorize-arcadia", auth: true, rt: true },
  { name: "onboarding", path: "/onboarding", auth: true, rt: true },
  { name: "settings", path: "/settings", auth: true, rt: true },
  { name: "settings team", path: "/settings?tab=team", auth: true, rt: true },
  { name: "free bill health check", path: "/free-bill-health-check", auth: false, rt: true },
  {
    name: "dismissal link",
    path: "/dismiss-thermostat-issue?thermostatId=1030&issueSlug=permanent_hold",
    auth: true,
    rt: true,
    emailLink: true,
    mail: "comfort alert",
  },
  {
    name: "fix-my-bill",
    path: "/fix-my-bill/action_requested",
    auth: false,
    emailLink: true,
    mail: "bill alert",
  },
  // The floor of the stack: a server-rendered page with no upstream call and no session.
  { name: "privacy policy (no upstream call)", path: "/privacy-policy", auth: false, throughput: true },
];
