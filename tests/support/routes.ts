import { PAGES } from "./pages";

/** Every route that accepts a POST (an action), for the CSRF suite. */
export const ACTIONS: string[] = [
  "/login",
  "/login/link",
  "/reset-password?token=x",
  "/logout",
  "/locations",
  "/impersonate",
  "/locations/105/control",
  "/locations/101/spending",
  "/dismiss-thermostat-issue?thermostatId=1024&issueSlug=permanent_hold",
];

/** Every GET route of the product (none may mutate: the dismissal link's GET only asks). */
export const GET_ROUTES: { path: string; public?: boolean }[] = [
  { path: "/", public: false },
  { path: "/login", public: true },
  { path: "/login/link?token=abc", public: true },
  { path: "/reset-password?token=abc", public: true },
  { path: "/mycor", public: true },
  { path: "/privacy-policy", public: true },
  { path: "/fix-my-bill/action_requested", public: true },
  { path: "/fix-my-bill/dismissed", public: true },
  { path: "/vendor-auth", public: true },
  { path: "/locations/101", public: false },
  { path: "/locations/101/usage", public: false },
  { path: "/locations/101/control?tab=issues", public: false },
  { path: "/locations/101/spending/csv", public: false },
  { path: "/locations/104/usage/demand/csv?period=month&start=2026-10-01", public: false },
  { path: "/override-report/1003/csv?period=month&start=2026-10-01", public: false },
  { path: "/findings.csv?period=last-month", public: false },
  ...PAGES.map((p) => ({ path: p.path, public: p.user === null })),
];
