import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { installClientErrorReporting } from "~/ui/client-errors";
import { ErrorEventContext } from "~/ui/error-boundary";
import { StaffErrorContext } from "~/ui/nonce";

installClientErrorReporting();

// The server renders a stack trace only for staff; keep it through hydration (the client never receives it otherwise).
const staffStack = document.querySelector("[data-testid='stack-trace']")?.textContent ?? null;
// Likewise the error report's event id of a server error (the fallback shows a reference to it).
const errorEventId = document.querySelector("[data-error-event]")?.getAttribute("data-error-event") ?? null;

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <StaffErrorContext.Provider value={staffStack}>
        <ErrorEventContext.Provider value={errorEventId}>
          <RemixBrowser />
        </ErrorEventContext.Provider>
      </StaffErrorContext.Provider>
    </StrictMode>,
  );
});
