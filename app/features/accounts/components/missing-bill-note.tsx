import { Link } from "@remix-run/react";

/**
 * An account's missing bill (rule missing-bill): the finding's name, its words (both written by the loader: the
 * rule stays out of the browser's bundle), and the ledger that lists it.
 */
export function MissingBillNote({ label, text }: { label: string; text: string }) {
  return (
    <div className="missing-bill" data-testid="missing-bill">
      <span aria-hidden="true">⚠ </span>
      <strong>{label}:</strong> {text}. <Link to="/findings">See findings</Link>
    </div>
  );
}
