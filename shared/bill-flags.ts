/**
 * The spec's words for a bill flag (rule flag-headings, docs/rules.md): the web's spending page and the api's
 * Bill Audit Alert email say the same heading and the same question, so they share this one definition.
 */
export type FlagLike = {
  id: number;
  type: string;
  status: string;
  details?: { previousSupplier?: string | null } | null;
};

/** The heading of one flag by type and status (rule flag-headings, docs/rules.md). */
export function flagHeading(flag: Pick<FlagLike, "type" | "status">): string {
  if (flag.type === "supplier_change") {
    if (flag.status === "unacknowledged") return "Please verify energy supplier change";
    if (flag.status === "action_requested") return "Help Request Received — We're on it!";
    // dismissed; completed is final too and reads the same (the spec names no other heading).
    return "New supplier verified";
  }
  if (flag.type === "rate_class_change") {
    return flag.status === "unacknowledged"
      ? "Your utility delivery rate increased"
      : "Utility delivery rate class updated";
  }
  return "Bill issue";
}

/** The explanation under a flag's heading (the copy notes of rule flag-headings, docs/rules.md). */
export function flagCopy(
  flag: Pick<FlagLike, "type" | "status" | "details">,
  supplier: string | null | undefined,
) {
  const previous = flag.details?.previousSupplier;
  const to = supplier ?? "a new supplier";
  if (flag.type === "supplier_change") {
    if (flag.status === "unacknowledged") {
      return `This bill lists ${to} as your energy supplier${previous ? ` instead of ${previous}` : ""}. Did you expect this change? If not, we will look into it and respond by email within 1 business day.`;
    }
    if (flag.status === "action_requested")
      return `We are looking into the change of supplier to ${to} and will respond by email within 1 business day.`;
    return `${to} is confirmed as the energy supplier on this bill.`;
  }
  if (flag.status === "unacknowledged") {
    return "Your utility moved this account to a different delivery rate class. Rate class changes typically mean 50-70% higher delivery cost. Did you expect this change? If not, we will look into it and respond by email within 1 business day.";
  }
  if (flag.status === "action_requested") {
    return "We are reviewing the delivery rate class change (typically 50-70% higher delivery cost) and will respond by email within 1 business day.";
  }
  return "The delivery rate class change on this bill has been reviewed.";
}
