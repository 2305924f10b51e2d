import { isRouteErrorResponse, useRouteError, type ErrorResponse } from "@remix-run/react";
import { createContext, useContext, type ReactNode } from "react";

/** The error report's event id of the server error this page shows (null when nothing was reported). */
export const ErrorEventContext = createContext<string | null>(null);

/**
 * The error report's reference on the fallback: staff see the whole event id (beside the stack trace), users a
 * short reference they can quote to support (the first 8 characters, enough to find the event; the page holds
 * no more than that). The spec has no wording for it; these sentences are ours. `data-error-event` keeps it
 * through hydration (entry.client).
 */
export function ErrorReference({ staff }: { staff: boolean }) {
  const id = useContext(ErrorEventContext);
  if (!id) return null;
  return staff ? (
    <p className="error-reference" data-error-event={id}>
      Event id: <code data-testid="error-event-id">{id}</code>
    </p>
  ) : (
    <p className="error-reference" data-error-event={id.slice(0, 8)}>
      If you contact us, please quote reference <code data-testid="error-reference">{id.slice(0, 8)}</code>.
    </p>
  );
}

type StatusHandler = (info: { error: ErrorResponse }) => ReactNode;

/**
 * The one error boundary of the app (ADR 13): a route passes what it shows for the statuses it expects
 * (`statusHandlers`, e.g. 403 Forbidden, 404 Not found) and, if it has one, its own state for an unexpected
 * error. Anything it does not handle is thrown on to the parent route's boundary, and finally to the root's,
 * which shows the support address (and the stack trace to staff).
 */
export function GeneralErrorBoundary({
  statusHandlers,
  defaultStatusHandler,
  unexpectedErrorHandler,
}: {
  statusHandlers?: Record<number, StatusHandler>;
  defaultStatusHandler?: StatusHandler;
  unexpectedErrorHandler?: (error: unknown) => ReactNode;
}) {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const handle = statusHandlers?.[error.status] ?? defaultStatusHandler;
    if (handle) return <>{handle({ error })}</>;
    throw error;
  }
  if (unexpectedErrorHandler) return <>{unexpectedErrorHandler(error)}</>;
  throw error;
}
