import type { ReactNode } from "react";

export function EmptyState({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="state card" data-testid="empty-state">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

export function ErrorState({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="state card" role="alert" data-testid="error-state">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

export function Alert({
  tone,
  children,
  title,
}: {
  tone: "error" | "info" | "success" | "warning";
  children?: ReactNode;
  title?: ReactNode;
}) {
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"}>
      {title ? <strong>{title}</strong> : null}
      {title && children ? <div>{children}</div> : children}
    </div>
  );
}
