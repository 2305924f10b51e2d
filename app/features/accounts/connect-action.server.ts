import { z } from "zod";
import { CONNECT_INTENTS } from "./utility-connect";

/** The flow's step: the chosen utility (its provider id), the flow's correlation id, `embed=1` in the shell's dialog. */
const step = {
  utility: z.string({ required_error: "Unknown utility" }).max(100, "Unknown utility"),
  correlationId: z.string({ required_error: "Unknown utility" }).transform((v) => v.slice(0, 100)),
  embed: z
    .string()
    .optional()
    .transform((v) => v === "1"),
};

/** The building or credential a connection is for: a hint from the page's address, dropped when malformed. */
const hintId = z
  .string()
  .optional()
  .transform((v) => (v !== undefined && /^\d{1,9}$/.test(v) ? Number(v) : null));

/**
 * The connect page's one action schema: the flow's opening (the Connect Utility Accounts button), the built-in
 * connect form, the provider widget's success, and the ConEd account numbers. The built-in form's own
 * fields are checked afterwards with `credentialsSchema` (the browser's schema), which needs the chosen
 * utility's MFA rule from the upstream list; the ConEd numbers with `conedStepErrors`.
 */
export const connectActionSchema = z.discriminatedUnion("intent", [
  // "Connect Utility Accounts" (connect-link.tsx): `next` is where the flow shows (checked by safeRedirect).
  // `building`: the location the flow starts with (a location's page, rule connect-keeps-location).
  z.object({ intent: z.literal("opened"), next: z.string().max(2000).optional(), building: hintId }),
  z.object({
    intent: z.literal(CONNECT_INTENTS.builtin),
    ...step,
    building: hintId,
    credential: hintId,
  }),
  // Connect's onCredentialsSubmitted: the provider's id of the credential it made or updated.
  z.object({
    intent: z.literal(CONNECT_INTENTS.provider),
    ...step,
    building: hintId,
    utilityCredentialId: z
      .string({ required_error: "Unknown credential" })
      .trim()
      .min(1, "Unknown credential")
      .max(200, "Unknown credential"),
    /**
     * How Connect ended after the submission (its onClose status, rule connect-close-outcome): `verified` or
     * `pending` moves to Success, `rejected` or `timed_out` keeps the step with its message. Anything else
     * (an older page) counts as `pending`: the verdict then reaches the accounts page by webhook.
     */
    status: z
      .string()
      .optional()
      .transform((v) => (v === "verified" || v === "rejected" || v === "timed_out" ? v : "pending")),
  }),
  // Without JavaScript: to the provider's hosted page for this utility, or for the credential to update.
  // `mfaAcknowledged`: the MFA warning ticked, required for a utility that is not exempt (rule mfa-checkbox).
  z.object({
    intent: z.literal(CONNECT_INTENTS.providerUrl),
    ...step,
    building: hintId,
    credential: hintId,
    mfaAcknowledged: z
      .string()
      .optional()
      .transform((v) => v === "on"),
  }),
  z.object({ intent: z.literal("coned-submit"), ...step }),
]);
