import { PAGES } from "./pages";

/** Every route that accepts a POST (an action), for the CSRF suite. */
export const ACTIONS: string[] = ["/login", "/login/link", "/reset-password?token=x", "/logout"];

/** Every GET route of the product; `mutatesByDesign` marks the idempotent dismissal link. */
export const GET_ROUTES: { path: string; public?: boolean; mutatesByDesign?: boolean }[] = [
  { path: "/", public: false },
  { path: "/login", public: true },
  { path: "/login/link?token=abc", public: true },
  { path: "/reset-password?token=abc", public: true },
  { path: "/mycor", public: true },
  { path: "/privacy-policy", public: true },
  ...PAGES.map((p) => ({ path: p.path, public: p.user === null })),
];
