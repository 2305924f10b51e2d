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
