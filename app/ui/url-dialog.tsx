import { lazy, Suspense, useState } from "react";
import type { UrlDialogProps } from "./url-dialog-radix";

/**
 * Radix's dialog (focus trap, scroll lock, dismissal: about 10 KiB gzip) is a chunk of its own, loaded when a
 * dialog first opens rather than with every page that has one (tests/ops/js-budget.test.ts).
 */
const RadixUrlDialog = lazy(() => import("./url-dialog-radix").then((m) => ({ default: m.RadixUrlDialog })));

/**
 * A dialog whose open state lives in the URL: a link opens it, the server renders it open, and closing is a
 * link back. A page rendered with the dialog open has it in its HTML (the server waits for everything,
 * entry.server.tsx), so it works without JavaScript; with it, the dialog stays mounted once it has opened.
 */
export function UrlDialog(props: UrlDialogProps) {
  const [loaded, setLoaded] = useState(props.open);
  if (props.open && !loaded) setLoaded(true);
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <RadixUrlDialog {...props} />
    </Suspense>
  );
}
