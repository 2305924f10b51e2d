import { useEffect, useState } from "react";
import { useHydrated } from "./use-hydrated";

export type ToastData = { kind: "success" | "error" | "info" | "warning"; message: string };

/** Flash toasts from the session: plain text without JavaScript, dismissible with it. */
export function Toasts({ toasts }: { toasts: ToastData[] }) {
  const hydrated = useHydrated();
  const [shown, setShown] = useState(toasts);
  useEffect(() => setShown(toasts), [toasts]);
  if (!shown.length) return null;
  return (
    <div className="toasts" aria-live="polite">
      {shown.map((t, i) => (
        <div
          key={`${t.message}-${i}`}
          className={`toast toast-${t.kind}`}
          role={t.kind === "error" ? "alert" : "status"}
          data-testid="toast"
        >
          <span className="spacer">{t.message}</span>
          {hydrated ? (
            <button
              type="button"
              className="btn btn-ghost btn-small"
              aria-label="Dismiss notification"
              onClick={() => setShown((s) => s.filter((_, j) => j !== i))}
            >
              ×
            </button>
          ) : null}
        </div>
      ))}
    </div>
  );
}
