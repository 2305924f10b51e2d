import { USERS } from "./fixtures";

/** Every page of the product with who views it: the axe and CSP sweeps visit each one in both projects. */
export const ALL_PAGES: { path: string; user: keyof typeof USERS | null }[] = [
  { path: "/login", user: null },
  { path: `/login?email=${encodeURIComponent(USERS.dana)}`, user: null },
  { path: "/login/link?token=abc", user: null },
  { path: "/mycor", user: null },
  { path: "/privacy-policy", user: null },
  { path: "/locations", user: "dana" },
];
