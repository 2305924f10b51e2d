import { z } from "zod";
import { credentialsSchema } from "~/features/accounts/accounts";
import { CONNECT_INTENTS } from "~/features/accounts/utility-connect";

/** The public prospect flow, free bill health check (rules prospect-form and prospect-steps, docs/rules.md). */

export const PROSPECT_MESSAGES = {
  title: "Free bill health check",
  successTitle: "Request Submitted",
  successText:
    "A message arrives at the email associated with each account within 2-3 minutes. Approve it so we can read your bills.",
  rateQuote: "Include a rate quote. I authorize the retrieval of up to 24 months of historical usage for it.",
  communicationsConsent: "I agree to receive emails about my bill health check and ways to save energy.",
  invalidEmail: "Please enter a valid email address",
  required: "Required",
  selectUtility: "Please select a utility",
  rejected: "Your request could not be submitted.",
} as const;

/** Where the flow lives; every step redirects back here. */
export const PROSPECT_PATH = "/free-bill-health-check";

/** The honeypot field: hidden from people, filled by form-stuffing bots. */
export const HONEYPOT_FIELD = "website";

export const prospectSchema = z.object({
  firstName: z
    .string({ required_error: PROSPECT_MESSAGES.required })
    .trim()
    .min(1, PROSPECT_MESSAGES.required)
    .max(100),
  emailAddress: z
    .string({ required_error: PROSPECT_MESSAGES.invalidEmail })
    .trim()
    .max(254, PROSPECT_MESSAGES.invalidEmail)
    .email(PROSPECT_MESSAGES.invalidEmail),
  companyName: z
    .string({ required_error: PROSPECT_MESSAGES.required })
    .trim()
    .min(1, PROSPECT_MESSAGES.required)
    .max(200),
  arcadiaProvider: z
    .string({ required_error: PROSPECT_MESSAGES.selectUtility })
    .min(1, PROSPECT_MESSAGES.selectUtility)
    .max(100),
  rateQuote: z.literal("on").optional(),
  communicationsConsent: z.literal("on").optional(),
});
export type ProspectForm = z.infer<typeof prospectSchema>;

/**
 * Without JavaScript the utility search POSTs the first form with this intent: nothing is stored, the page
 * re-renders with the query and everything typed so far (rule prospect-search, docs/rules.md).
 */
export const SEARCH_INTENT = "search";

/**
 * Without JavaScript the Search button comes first in the form's tree order, so it is the form's default
 * button: Enter in *any* field posts intent "search". The form carries the query it was last searched with
 * (`searched`); when the query is unchanged the Enter was meant for Continue, so the post is a "start"
 * (rule prospect-enter-continues). A changed query is a search. Returns the intent to act on.
 */
export function effectiveIntent(form: { get(name: string): unknown }) {
  const intent = form.get("intent");
  if (intent !== SEARCH_INTENT) return intent;
  const q = String(form.get("q") ?? "").trim();
  const searched = form.get("searched");
  return searched !== null && String(searched).trim() === q ? "start" : SEARCH_INTENT;
}

/**
 * The one schema of the page's action: an intent per form. "start" is the first form; "coned-submit" carries
 * the ConEd account list (checked by conedStepErrors, whose messages go next to the list); the built-in
 * connect form needs the chosen utility's MFA rule; the provider's Connect posts its credential id and how it
 * ended (JavaScript), or asks for the hosted page (no JavaScript).
 */
export function prospectActionSchema(mfaExempt: boolean) {
  return z.discriminatedUnion("intent", [
    prospectSchema.extend({ intent: z.literal("start") }),
    z.object({ intent: z.literal(SEARCH_INTENT), q: z.string().max(100).optional() }),
    z.object({
      intent: z.literal("coned-submit"),
      account: z.array(z.string().optional()).optional(),
      confirmed: z.string().optional(),
      newAccount: z.string().optional(),
    }),
    credentialsSchema(mfaExempt).extend({ intent: z.literal(CONNECT_INTENTS.builtin) }),
    z.object({
      intent: z.literal(CONNECT_INTENTS.provider),
      utilityCredentialId: z.string().trim().min(1).max(200),
      status: z.enum(["verified", "pending", "rejected", "timed_out"]),
    }),
    z.object({ intent: z.literal(CONNECT_INTENTS.providerUrl) }),
  ]);
}
export type ProspectAction = z.infer<ReturnType<typeof prospectActionSchema>>;

export type ProspectStep = "form" | "coned" | "connect" | "success";

/** The step to render: no record yet means the first form; ConEd-type utilities collect account numbers. */
export function prospectStep(
  state: { isConed: boolean; done: boolean } | null,
  requested: string | null,
): ProspectStep {
  if (!state) return "form";
  if (state.done) return requested === "form" ? "form" : "success";
  if (requested === "form") return "form";
  return state.isConed ? "coned" : "connect";
}

/** utility_data for PUT /prospect-analysis/{id}, derived from the ConEd account numbers. */
export const conedUtilityData = (accounts: string[]) => ({
  coned_accounts: accounts.map((accountNumber) => ({ account_number: accountNumber })),
});

/**
 * The client address for the rate limit, only when proxies in front are trusted (TRUST_PROXY hops):
 * the entry that many places from the right of x-forwarded-for. Otherwise null (the header is forgeable).
 */
export function clientIpFromHeaders(forwardedFor: string | null, trustProxy: number): string | null {
  if (!forwardedFor || trustProxy <= 0) return null;
  const hops = forwardedFor
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (hops.length === 0) return null;
  return hops[Math.max(0, hops.length - trustProxy)] ?? null;
}
