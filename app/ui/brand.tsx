import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

export const PRODUCT_NAME = "EnergyOps";

export function Brand() {
  return (
    <Link to="/" className="brand">
      <span className="brand-mark" aria-hidden="true" />
      {PRODUCT_NAME}
    </Link>
  );
}

/** The frame of the public pages (login, token login, reset, notices). */
export function PublicPage({ children, wide }: { children: ReactNode; wide?: boolean }) {
  return (
    <main id="main" className="public-page">
      <div className={wide ? "prose" : "public-card"}>
        <Brand />
        {children}
      </div>
    </main>
  );
}
