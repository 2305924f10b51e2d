import { lazy, Suspense, useState, type ComponentProps } from "react";
import type { BillPickerDialog, DatePickerDialog } from "./date-pickers";

/**
 * The usage page's two picker dialogs (calendars, bill list, the dialog itself) are a chunk of their own, loaded
 * when one first opens (tests/ops/js-budget.test.ts). A page rendered with a picker open (its link without
 * JavaScript) has it in its HTML: the server waits for everything (entry.server.tsx).
 */
const loadPickers = () => {
  // The dialog's own chunk (Radix, app/ui/url-dialog.tsx) is fetched beside the pickers', not after them.
  void import("~/ui/url-dialog-radix");
  return import("./date-pickers");
};
const LazyDatePicker = lazy(() => loadPickers().then((m) => ({ default: m.DatePickerDialog })));
const LazyBillPicker = lazy(() => loadPickers().then((m) => ({ default: m.BillPickerDialog })));

/** Whether a dialog has opened on this page: it then stays mounted (closed), for its focus return. */
function useOpened(open: boolean) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened;
}

export function DatePicker(props: ComponentProps<typeof DatePickerDialog>) {
  return useOpened(props.open) ? (
    <Suspense fallback={null}>
      <LazyDatePicker {...props} />
    </Suspense>
  ) : null;
}

export function BillPicker(props: ComponentProps<typeof BillPickerDialog>) {
  return useOpened(props.open) ? (
    <Suspense fallback={null}>
      <LazyBillPicker {...props} />
    </Suspense>
  ) : null;
}
