import { ARCADIA_PACKAGE_SCRIPT_URL } from "~/lib/arcadia-connect";

/**
 * The Enter Credentials step of the connect flows is where the utility-data provider's Connect sits.
 * One interface, two implementations:
 * - `provider` (default): the provider's own Connect (Arcadia). With JavaScript, `@arcadia-eng/connect-react`
 *   opens it over the page with a Connect token our server minted through the api; without JavaScript, a
 *   button posts to our action, which has the api create a Connect URL and sends the person to the provider's
 *   hosted page, which sends them back to the success step (docs/api/arcadia.md);
 * - `builtin`: a server-rendered username and password form posting to the route's action, which calls the
 *   reference api's `POST /utility-connections` (works without JavaScript). Demo mode always uses it. The
 *   prospect flow uses the provider's Connect too, with sessions the api mints for the prospect's record.
 */
export type ConnectWidgetConfig = { kind: "builtin" } | { kind: "provider"; scriptUrl: string };

/**
 * The widget a connect step shows. In demo mode the page holds provider id stand-ins (rule
 * demo-mode-anonymisation) that only the web can turn back into real ids: the provider's Connect, given the
 * id in the browser, would not know it, so demo mode always gets the built-in form, whose post the web
 * restores before it goes upstream.
 */
export function connectWidgetConfig(
  cfg: { UTILITY_CONNECT_WIDGET: "builtin" | "provider"; ARCADIA_CONNECT_SCRIPT_URL?: string },
  demoMode = false,
): ConnectWidgetConfig {
  if (!demoMode && cfg.UTILITY_CONNECT_WIDGET === "provider")
    return { kind: "provider", scriptUrl: cfg.ARCADIA_CONNECT_SCRIPT_URL ?? ARCADIA_PACKAGE_SCRIPT_URL };
  return { kind: "builtin" };
}

/** What every implementation is given: the utility, the flow's correlation id and the form's hidden state. */
export type ConnectWidgetUtility = {
  name: string;
  arcadiaProviderId: string;
  mfaExempt: boolean;
  isJcpl: boolean;
  requiresEbill: boolean;
};

/**
 * A Connect session the connect page's loader opened (JavaScript path): the token (2 hours, only in this
 * page's HTML) and the provider environment it belongs to; `failed` when the api could not mint one (the
 * no-JavaScript button still works: it asks again).
 */
export type ConnectSession = { token: string; env: "sandbox" | "production" } | { failed: true };

export const CONNECT_INTENTS = {
  builtin: "connect",
  /** Connect's onCredentialsSubmitted (JavaScript): the provider's credential id. */
  provider: "provider-connected",
  /** The no-JavaScript path: a Connect URL, then the provider's hosted page. */
  providerUrl: "provider-url",
} as const;
