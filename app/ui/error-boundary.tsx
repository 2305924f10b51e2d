import { isRouteErrorResponse, useRouteError, type ErrorResponse } from "@remix-run/react";
import type { ReactNode } from "react";

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
