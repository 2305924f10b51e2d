import { Link } from "@remix-run/react";
import { MISSING_BILL_LABEL } from "../../../../shared/missing-bill";

/** An account's missing bill (rule missing-bill): the finding's name, its words, and the ledger that lists it. */
export function MissingBillNote({ text }: { text: string }) {
  return (
    <div className="missing-bill" data-testid="missing-bill">
      <span aria-hidden="true">⚠ </span>
      <strong>{MISSING_BILL_LABEL}:</strong> {text}.{" "}
      <Link to="/findings">
        See findings
      </Link>
    </div>
  );
}
