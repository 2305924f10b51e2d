import { m001_core } from "./001_core";

export type Migration = { id: string; sql: string };

/** Every migration of the reference api; ids sort in the order they apply. One line per area. */
export const migrations: Migration[] = [m001_core];
