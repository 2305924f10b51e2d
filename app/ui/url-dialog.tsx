import { Link, useNavigate } from "@remix-run/react";
import * as Dialog from "@radix-ui/react-dialog";
import { useId, type ReactNode } from "react";

/**
 * A Radix Dialog whose open state lives in the URL: a link opens it, the server renders it open, and closing
 * is a link back. Rendered in place (no portal) so the server HTML holds it for browsers without JavaScript.
 */
export function UrlDialog({
  open,
  closeHref,
  title,
  description,
  full,
  children,
}: {
  open: boolean;
  closeHref: string;
  title: ReactNode;
  description?: ReactNode;
  full?: boolean;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  // Explicit ids: Radix only links title and description to the dialog after hydration.
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        if (!o) navigate(closeHref, { replace: true, preventScrollReset: true });
      }}
    >
      {open ? (
        <>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content
            className={`dialog-content${full ? " dialog-full" : ""}`}
            aria-labelledby={titleId}
            aria-describedby={description ? descriptionId : undefined}
            aria-modal="true"
          >
            <Dialog.Title id={titleId}>{title}</Dialog.Title>
            {description ? (
              <Dialog.Description id={descriptionId} className="muted">
                {description}
              </Dialog.Description>
            ) : null}
            {children}
            <Dialog.Close asChild>
              <Link
                to={closeHref}
                replace
                preventScrollReset
                className="btn btn-secondary btn-small dialog-close"
                aria-label="Close"
              >
                Close
              </Link>
            </Dialog.Close>
          </Dialog.Content>
        </>
      ) : null}
    </Dialog.Root>
  );
}
