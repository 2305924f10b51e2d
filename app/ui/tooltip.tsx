import { useId, type ReactNode } from "react";

/**
 * A tooltip that works without JavaScript: shown on hover and on keyboard focus of its trigger,
 * and read by screen readers through aria-describedby.
 */
export function Tooltip({
  content,
  children,
  label,
}: {
  content: ReactNode;
  children: ReactNode;
  label?: string;
}) {
  const id = useId();
  return (
    <span className="tip">
      <button type="button" aria-describedby={id} aria-label={label} className="tip-trigger">
        {children}
      </button>
      {/* Without CSS (a text browser) the tip follows its trigger on the same line: set it apart. */}
      <span aria-hidden="true" className="text-only">
        {" — "}
      </span>
      <span role="tooltip" id={id} className="tip-content">
        {content}
      </span>
    </span>
  );
}
