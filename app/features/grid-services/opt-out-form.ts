import { z } from "zod";

// The Grid Services page's form schema (zod 3, as Conform's parseWithZod reads it), apart from the answer
// schemas of grid-services.server.ts (zod/v4, ADR 0021).

/** The "Opt out of this event" button: the event and the location it opts out (rule grid-opt-out). */
export const optOutForm = z.object({
  dispatchId: z.coerce.number().int().positive(),
  buildingId: z.coerce.number().int().positive(),
});
