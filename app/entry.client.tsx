import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { StaffErrorContext } from "./ui/nonce";

// The server renders a stack trace only for staff; keep it through hydration (the client never receives it otherwise).
const staffStack = document.querySelector("[data-testid='stack-trace']")?.textContent ?? null;

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <StaffErrorContext.Provider value={staffStack}>
        <RemixBrowser />
      </StaffErrorContext.Provider>
    </StrictMode>,
  );
});
