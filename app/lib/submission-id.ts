import { z } from "zod";

/**
 * The field in a form's Zod schema: a UUID, or absent (a page rendered before the field existed, or another
 * client) — then the submission is simply processed. A malformed value counts as absent.
 */
export const submissionIdField = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
  .optional()
  .catch(undefined);
