import { z } from "zod";
import type { ApiClient } from "~/server/api-client.server";

export const addressSchema = z.object({
  addressLine1: z.string(),
  addressLine2: z.string().nullish(),
  city: z.string(),
  state: z.string(),
  zipcode: z.string(),
});

export const buildingSchema = z.object({
  id: z.number(),
  name: z.string(),
  nickname: z.string().nullish(),
  code: z.string().nullish(),
  address: addressSchema,
  timezone: z.string().nullish(),
});
export type Building = z.infer<typeof buildingSchema>;

const pageSchema = z.object({ items: z.array(buildingSchema), total: z.number().int().nonnegative(), page: z.number(), size: z.number() });

export const BUILDINGS_PAGE_SIZE = 75;
/** A client with more than 100 pages (7,500 locations) is not a small or medium business: stop there. */
const MAX_PAGES = 100;

/** Every building of the client: the first page, then the remaining pages of 75 together. */
export async function listAllBuildings(api: ApiClient): Promise<Building[]> {
  const first = await api.get("/buildings", { query: { size: BUILDINGS_PAGE_SIZE, page: 1 }, schema: pageSchema });
  const pages = Math.min(MAX_PAGES, Math.ceil(first.total / BUILDINGS_PAGE_SIZE));
  if (pages <= 1) return first.items;
  const rest = await Promise.all(
    Array.from({ length: pages - 1 }, (_, i) => api.get("/buildings", { query: { size: BUILDINGS_PAGE_SIZE, page: i + 2 }, schema: pageSchema })),
  );
  return [first.items, ...rest.map((p) => p.items)].flat();
}
