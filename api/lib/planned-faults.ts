import type { ApiDeps } from "./http";

/**
 * The failures planned through the test hook POST /dev/faults (api/routes/dev-faults.ts), per api: kept here so
 * the reset hook (api/routes/dev.ts) can forget them without one route module importing another.
 */

/** One planned failure: the next `times` requests of `method` whose path starts with `pathPrefix`. */
type Fault = { method: string; pathPrefix: string; status: number; message: string; times: number };

const planned = new WeakMap<ApiDeps, Fault[]>();

/** Forgets every planned failure (the reset hook calls it, so each test starts without one). */
export function clearFaults(deps: ApiDeps) {
  planned.set(deps, []);
}

/** The planned failures, in the order they were planned (the hook adds to this list and takes from it). */
export function plannedFaults(deps: ApiDeps): Fault[] {
  let faults = planned.get(deps);
  if (!faults) planned.set(deps, (faults = []));
  return faults;
}
