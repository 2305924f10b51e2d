import { m001_core } from "./001_core";
import { m002_shared } from "./002_shared";
import { m040_grid } from "./040_grid";

export type Migration = { id: string; sql: string };

/** Every migration of the reference api; ids sort in the order they apply. One line per area. */
export const migrations: Migration[] = [m001_core, m002_shared, m040_grid];
