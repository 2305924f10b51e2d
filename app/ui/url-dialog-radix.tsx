import { Link, useNavigate } from "@remix-run/react";
import * as Dialog from "@radix-ui/react-dialog";
import { useId, useRef, type ReactNode } from "react";

export type UrlDialogProps = {
  open: boolean;
  closeHref: string;
  title: ReactNode;
  description?: ReactNode;
  full?: boolean;
  children: ReactNode;
};

/**
 * The Radix Dialog of UrlDialog (app/ui/url-dialog.tsx), which loads this module when a dialog first opens:
 * rendered in place (no portal) so the server HTML holds it for browsers without JavaScript.
 */
export function RadixUrlDialog({ open, closeHref, title, description, full, children }: UrlDialogProps) {
  const navigate = useNavigate();
  // Explicit ids: Radix only links title and description to the dialog after hydration.
  const titleId = useId();
  const descriptionId = useId();
  const opener = useRef<{ element: HTMLElement; href: string | null } | null>(null);
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
            onOpenAutoFocus={() => {
              // Before Radix moves focus in: the control that opened the dialog (a link, so also its href).
              const active = document.activeElement;
              opener.current =
                active instanceof HTMLElement && active !== document.body
                  ? { element: active, href: active.getAttribute("href") }
                  : null;
            }}
            onCloseAutoFocus={(event) => {
              // Closing is a navigation that may re-render the opener: focus it, or the link now in its place.
              const target = openerAfterClose(opener.current);
              if (!target) return;
              event.preventDefault();
              target.focus();
            }}
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

function openerAfterClose(opener: { element: HTMLElement; href: string | null } | null): HTMLElement | null {
  if (!opener) return null;
  if (opener.element.isConnected) return opener.element;
  if (!opener.href) return null;
  return document.querySelector<HTMLElement>(`a[href="${CSS.escape(opener.href)}"]`);
}
