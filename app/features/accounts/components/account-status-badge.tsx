import { Link } from "@remix-run/react";
import { Pill } from "~/ui/pill";
import { Tooltip } from "~/ui/tooltip";
import { accountStatusView } from "../account-status";

/** The connection status badge (rule account-status-labels, docs/rules.md), with its tooltip when it has one. */
export function AccountStatusBadge({ status, detail }: { status: string; detail: string | null }) {
  const view = accountStatusView(status, detail);
  const pill = <Pill tone={view.badge}>{view.label}</Pill>;
  if (!view.tooltip) return pill;
  return (
    <Tooltip content={view.tooltip} label={`${view.label}: ${view.tooltip}`}>
      {pill}
    </Tooltip>
  );
}

/**
 * An account's missing bill (rule missing-bill), shown under its status: the finding's name, its words (both
 * written by the loader: the rule stays out of the browser's bundle), and the ledger that lists it.
 */
export function MissingBillNote({ label, text }: { label: string; text: string }) {
  return (
    <div className="missing-bill" data-testid="missing-bill">
      <span aria-hidden="true">⚠ </span>
      <strong>{label}:</strong> {text}. <Link to="/findings">See findings</Link>
    </div>
  );
}
