import type { ApiDeps } from "../lib/http";
import { startThermostatSimulator } from "./thermostats";
import { startUtilityProvider } from "./utility-provider";

/**
 * Background simulators of the third parties (thermostat vendors, the utility-data provider).
 * Each area adds its starter here; each returns a function that stops it.
 */
const starters: ((deps: ApiDeps) => () => void)[] = [startThermostatSimulator, startUtilityProvider];

export function startSimulators(deps: ApiDeps) {
  const stops = starters.map((start) => start(deps));
  return () => stops.forEach((stop) => stop());
}
