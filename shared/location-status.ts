/**
 * A location's thermostat status in the dashboard's words (rules location-chip, thermostat-issues-card and
 * locations-need-attention, docs/rules.md): the web's locations dashboard and the api's Weekly Rundown both
 * read a location's device summary through these functions, so the email never says "no issues" where the
 * dashboard says Offline. Pure, and it imports nothing.
 */

export type DeviceStatus = "IN_DISPATCH_EVENT" | "DEVICE_ISSUES" | "OPERATING" | "NO_DEVICES";

/** The energy-advisor answer's `deviceSummary` of one location (docs/api/locations.md). */
export type DeviceSummary = {
  deviceStatus: DeviceStatus | string;
  numThermostats: number;
  unreachableThermostatsIds: number[];
  issueThermostatsIds: number[];
};

export type ChipTone = "info" | "error" | "warning" | "success" | "grey";
export type Chip = { label: string; tone: ChipTone; rank: number };

/** A location the energy-advisor list does not know has no devices. */
export const NO_DEVICES_SUMMARY: DeviceSummary = {
  deviceStatus: "NO_DEVICES",
  numThermostats: 0,
  unreachableThermostatsIds: [],
  issueThermostatsIds: [],
};

/** Devices with a problem: the distinct union of issue and unreachable devices. */
export const problemDeviceCount = (s: DeviceSummary) =>
  new Set([...s.issueThermostatsIds, ...s.unreachableThermostatsIds]).size;

/**
 * The chip of the Thermostats cell: 'Ongoing Dispatch Event'; 'Offline' when every device is unreachable,
 * 'n/m Offline' when some are and none has an issue; 'Operating'; 'n device issue(s)' over the distinct
 * union of issue and unreachable devices; otherwise 'No Devices'. `rank` orders the column (worst first).
 */
export function thermostatChip(s: DeviceSummary): Chip {
  const unreachable = new Set(s.unreachableThermostatsIds).size;
  const issues = new Set(s.issueThermostatsIds).size;
  if (s.deviceStatus === "IN_DISPATCH_EVENT")
    return { label: "Ongoing Dispatch Event", tone: "info", rank: 0 };
  if (s.numThermostats > 0 && unreachable > 0 && unreachable >= s.numThermostats)
    return { label: "Offline", tone: "error", rank: 1 };
  if (unreachable > 0 && issues === 0)
    return { label: `${unreachable}/${s.numThermostats} Offline`, tone: "error", rank: 2 };
  const problems = problemDeviceCount(s);
  if (s.deviceStatus === "OPERATING" || (s.numThermostats > 0 && problems === 0))
    return { label: "Operating", tone: "success", rank: 4 };
  if (problems > 0)
    return { label: `${problems} device ${problems === 1 ? "issue" : "issues"}`, tone: "warning", rank: 3 };
  return { label: "No Devices", tone: "grey", rank: 5 };
}

/**
 * A location has thermostat issues (the dashboard's "locations with thermostat issues" card) when any device
 * has an open issue or is unreachable. The same rule says which locations of a digest need attention.
 */
export const hasThermostatIssues = (s: DeviceSummary) => problemDeviceCount(s) > 0;

/**
 * What a location needing attention reads in the digest: its chip, and where the chip leads with an ongoing
 * dispatch, also the dashboard's count of devices with a problem ("Ongoing Dispatch Event, 1 device issue").
 */
export function attentionLabel(s: DeviceSummary): string {
  const chip = thermostatChip(s);
  const problems = problemDeviceCount(s);
  if (chip.rank !== 0 || problems === 0) return chip.label;
  return `${chip.label}, ${problems} device ${problems === 1 ? "issue" : "issues"}`;
}

/**
 * The digest's opening line: how many of the locations need attention (have thermostat issues), or that
 * none does. "3 of 14 locations need attention", "1 of 14 locations needs attention", "Your location needs
 * attention".
 */
export function attentionLine(needing: number, total: number): string {
  if (total === 1)
    return needing ? "Your location needs attention." : "Nothing at your location needs attention.";
  if (needing === 0) return `None of your ${total} locations needs attention.`;
  return `${needing} of ${total} locations ${needing === 1 ? "needs" : "need"} attention.`;
}
