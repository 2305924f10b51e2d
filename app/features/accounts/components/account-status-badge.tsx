import { Pill } from "~/ui/pill";
import { Tooltip } from "~/ui/tooltip";
import { accountStatusView } from "../account-status";

/** The connection status badge of part 1 §4, with its tooltip when it has one. */
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
