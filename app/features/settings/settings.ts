/** Manage Account (rules editable-preferences, team-tab-visibility and the team-* rules, docs/rules.md). */

export const PREFERENCE_TOGGLES = [
  { type: "bill_flag", label: "Bill Audit Alerts" },
  { type: "weekly_rundown", label: "Weekly Rundown" },
  { type: "monthly_recap", label: "Monthly Recap" },
  { type: "customer_comfort", label: "Customer Comfort Alerts" },
  // Not among the spec's four: the thermostat issue alerts' "Unsubscribe from Thermostat Issue Alerts" sends
  // people here to turn them on again, so they have their switch (rule editable-preferences).
  { type: "device_issue", label: "Thermostat Issue Alerts" },
  // The notice the day before a grid event at the person's locations, with its opt-out links.
  { type: "grid_event", label: "Grid Event Notices" },
] as const;
export type EditablePreference = (typeof PREFERENCE_TOGGLES)[number]["type"];
export const isEditablePreference = (t: unknown): t is EditablePreference =>
  PREFERENCE_TOGGLES.some((p) => p.type === t);

export type CommunicationPreference = {
  userId: number;
  deliveryMethodPreference: "email" | "sms";
  communicationPreferenceType: string;
  enabled: boolean;
};

/** The email toggles, read from the user's preferences (missing means off). */
export function emailToggles(prefs: CommunicationPreference[]) {
  return PREFERENCE_TOGGLES.map((t) => ({
    ...t,
    enabled: prefs.some(
      (p) => p.communicationPreferenceType === t.type && p.deliveryMethodPreference === "email" && p.enabled,
    ),
  }));
}

export type TeamBuilding = { userId: number; buildingId: number; hasAccess: boolean; buildingName: string };
export type TeamMember = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  userBuildingsWithName: TeamBuilding[];
};

export const LOCATION_NAME_MAX = 23;

/** A location name cut to 23 characters at most (the last one an ellipsis when cut). */
export function truncateName(name: string, max = LOCATION_NAME_MAX) {
  return name.length <= max ? name : `${name.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The team list's locations column: the first two location names (23 characters each at most), then
 * 'N selected' (N: every location the member can see) when there are more than two.
 */
export function locationsColumn(buildings: Pick<TeamBuilding, "hasAccess" | "buildingName">[]): string {
  const names = buildings.filter((b) => b.hasAccess).map((b) => b.buildingName);
  if (names.length === 0) return "No locations";
  const shown = names
    .slice(0, 2)
    .map((n) => truncateName(n))
    .join(", ");
  return names.length > 2 ? `${shown}, ${names.length} selected` : shown;
}

export const fullName = (m: Pick<TeamMember, "firstName" | "lastName">) =>
  `${m.firstName} ${m.lastName}`.trim();

export type TeamSort = "name" | "email" | "locations";
export const TEAM_SORTS: TeamSort[] = ["name", "email", "locations"];

/** Search (name or email, case-insensitive) and sort of the team list. */
export function searchAndSortTeam<M extends TeamMember>(
  members: M[],
  q: string,
  sort: TeamSort = "name",
  dir: "asc" | "desc" = "asc",
): M[] {
  const needle = q.trim().toLowerCase();
  const found = needle
    ? members.filter(
        (m) => fullName(m).toLowerCase().includes(needle) || m.email.toLowerCase().includes(needle),
      )
    : members;
  const key = (m: M): string | number =>
    sort === "email"
      ? m.email.toLowerCase()
      : sort === "locations"
        ? m.userBuildingsWithName.filter((b) => b.hasAccess).length
        : `${m.lastName} ${m.firstName}`.toLowerCase();
  const sorted = [...found].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const c =
      typeof ka === "number" && typeof kb === "number" ? ka - kb : String(ka).localeCompare(String(kb));
    return c !== 0 ? c : a.id - b.id;
  });
  return dir === "desc" ? sorted.reverse() : sorted;
}

/** The locations whose access changes between what the server has and what the admin chose: one call each. */
export function accessChanges(
  current: Pick<TeamBuilding, "buildingId" | "hasAccess">[],
  chosen: Iterable<number>,
) {
  const set = new Set(chosen);
  return current
    .filter((b) => b.hasAccess !== set.has(b.buildingId))
    .map((b) => ({ buildingId: b.buildingId, hasAccess: set.has(b.buildingId) }));
}

/** Select all / revoke all / keep, for the access editor (with and without JavaScript). */
export function bulkChoice(
  all: number[],
  chosen: number[],
  op: "select-all" | "revoke-all" | "keep",
): number[] {
  if (op === "select-all") return [...all];
  if (op === "revoke-all") return [];
  const allowed = new Set(all);
  return [...new Set(chosen)].filter((id) => allowed.has(id));
}

export const SETTINGS_TABS = ["preferences", "team"] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];
export const settingsTab = (v: string | null, canManage: boolean): SettingsTab =>
  v === "team" && canManage ? "team" : "preferences";

/** The view of the preferences tab: the four email toggles. */
export type PreferenceToggleView = { type: EditablePreference; label: string; enabled: boolean };

/** One row of the team list, with the locations its access editor lists. */
export type TeamMemberView = {
  id: number;
  name: string;
  email: string;
  locations: string;
  /** Every location with the member's access: only for the member being edited (`?edit=`), otherwise empty. */
  buildings: { id: number; name: string; hasAccess: boolean }[];
};

/** The view of the team tab: the list as searched and sorted, the member being edited, the form's id. */
export type TeamView = {
  error: boolean;
  /** For the access form (ADR 0010): a new one with every render. */
  submissionId: string;
  q: string;
  sort: TeamSort;
  dir: "asc" | "desc";
  edit: number | null;
  members: TeamMemberView[];
};

/** What the access editor gets back from the action: the choice to show, and what failed. */
export type AccessActionData = {
  userId: number;
  chosen: number[];
  failed?: string[];
  message?: string;
  /** A failed location got no answer but may have been saved (ADR 0010): the editor says so. */
  maybeApplied?: boolean;
};

/** The line after a failed save when some location got no answer but may have been saved all the same. */
export const ACCESS_MAYBE_APPLIED =
  "Some of these may have been saved all the same: this member's locations show it once you reload the page. Saving the same choice again is safe.";

/** The access editor's intents: Select all / Revoke all (without JavaScript) answer the choice; Save saves it. */
export const ACCESS_INTENTS = ["access-select-all", "access-revoke-all", "access-save"] as const;
export type AccessIntent = (typeof ACCESS_INTENTS)[number];
export const isAccessIntent = (v: unknown): v is AccessIntent => ACCESS_INTENTS.some((i) => i === v);
