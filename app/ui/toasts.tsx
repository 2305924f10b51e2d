import {
  createContext,
  useContext,
  useEffect,
  useId,
  useReducer,
  useRef,
  useState,
  type ReactNode,
} from "react";
import { useHydrated } from "./use-hydrated";

export type ToastData = { kind: "success" | "error" | "info" | "warning"; message: string };

/**
 * The page's own toasts (an action's answer, a finished thermostat command), keyed by the component that
 * shows them. Pages write here while they render, so the one region, rendered after the page, holds them in
 * the server's HTML too (JavaScript off); `changed` re-renders the region when a page's toast changes later.
 */
type Slot = { page: Map<string, { key: string; toast: ToastData }>; changed: () => void };
const ToastSlot = createContext<Slot | null>(null);

// A toast's identity: the same answer keeps its key across renders, a new answer (even with the same words)
// gets a new one, so it is inserted (and announced) once and a dismissed one stays dismissed.
let serial = 0;
const serials = new WeakMap<object, string>();
function keyOf(source: object | string) {
  if (typeof source === "string") return source;
  let key = serials.get(source);
  if (!key) {
    serial += 1;
    key = `t${serial}`;
    serials.set(source, key);
  }
  return key;
}

/**
 * The one toast region of every page (rendered once, `role="status"`, so each message is announced once): the
 * session's flash (a redirect saying why) and the page's own toasts, bottom right, full width at the foot
 * of a phone's screen. Each leaves by itself after a few seconds (a CSS animation, paused while the region is
 * hovered or holds focus) and has a close control that works without JavaScript (a checkbox the CSS reads).
 */
export function ToastRegion({ flash, children }: { flash: ToastData | null; children: ReactNode }) {
  const slot = useRef<Slot | null>(null);
  if (!slot.current) slot.current = { page: new Map(), changed: () => {} };
  return (
    <ToastSlot.Provider value={slot.current}>
      {children}
      <ToastList slot={slot.current} flash={flash} />
    </ToastSlot.Provider>
  );
}

/** Shows `toast` (when set) in the page's toast region for as long as the calling component shows it. */
export function usePageToast(
  toast: ToastData | null | undefined,
  source: object | string | null | undefined,
) {
  const id = useId();
  const slot = useContext(ToastSlot);
  const key = toast && source ? keyOf(source) : null;
  if (slot) {
    if (toast && key) slot.page.set(id, { key, toast });
    else slot.page.delete(id);
  }
  useEffect(() => {
    slot?.changed();
  }, [slot, key]);
  useEffect(
    () => () => {
      slot?.page.delete(id);
      slot?.changed();
    },
    [slot, id],
  );
}

function ToastList({ slot, flash }: { slot: Slot; flash: ToastData | null }) {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    slot.changed = rerender;
  }, [slot]);
  const hydrated = useHydrated();
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const dismiss = (key: string) => setDismissed((d) => new Set(d).add(key));
  const items = [...(flash ? [{ key: keyOf(flash), toast: flash }] : []), ...slot.page.values()].filter(
    (item, i, all) => !dismissed.has(item.key) && all.findIndex((o) => o.key === item.key) === i,
  );
  return (
    <div className="toasts" role="status" data-testid="toast-region">
      {items.map(({ key, toast }, i) => (
        // Leaving by itself ends with an animation: with JavaScript the toast then leaves the page too.
        <div
          key={key}
          className="toast-item"
          onAnimationEnd={(e) => e.target === e.currentTarget && dismiss(key)}
        >
          {hydrated ? null : <input type="checkbox" id={`toast-close-${i}`} className="toast-close-box" />}
          <div className={`toast toast-${toast.kind}`} data-testid="toast">
            {toast.message}
          </div>
          {/* Beside the message, not in it: the toast's text is the message alone. */}
          {hydrated ? (
            <button
              type="button"
              className="btn btn-ghost btn-small toast-close"
              aria-label="Dismiss notification"
              onClick={() => dismiss(key)}
            />
          ) : (
            <label htmlFor={`toast-close-${i}`} className="btn btn-ghost btn-small toast-close">
              <span className="visually-hidden">Dismiss notification</span>
            </label>
          )}
        </div>
      ))}
    </div>
  );
}
