/** Fixed ids of the demo data (docs/demo-data.md), shared by every area's seed and by the tests. */
export const CLIENT = { harbor: 1, maple: 2, greenway: 3, metro: 4 } as const;
export const USER = { dana: 1, sam: 2, alex: 3, riley: 4, jordan: 5, morgan: 6 } as const;
/** Harbor Coffee Co. buildings are 101..114; Maple Dental 201; Greenway Homes 301; Metro Towers 401. */
export const HARBOR_BUILDINGS = Array.from({ length: 14 }, (_, i) => 101 + i);
export const MAPLE_BUILDING = 201;
export const GREENWAY_BUILDING = 301;
export const METRO_BUILDING = 401;
export const DEMO_PASSWORD = "demo-pass-2024";
