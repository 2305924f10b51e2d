/**
 * The Enter Credentials step of the connect flows is where the utility-data provider's widget sits.
 * One interface, two implementations:
 * - `builtin` (default): a server-rendered username and password form posting to the route's action, which
 *   calls the reference api's `POST /utility-connections` (works without JavaScript);
 * - `provider`: the provider's own embed (script URL and key from config, JavaScript only). Until the page is
 *   hydrated, and whenever JavaScript is off, the built-in form is its server-rendered equivalent.
 */
export type ConnectWidgetConfig =
  { kind: "builtin" } | { kind: "provider"; scriptUrl: string; widgetKey: string };

/**
 * The widget a connect step shows. In demo mode the page holds provider id stand-ins (rule
 * demo-mode-anonymisation) that only the web can turn back into real ids: the provider's own embed, given the
 * id in the browser, would not know it, so demo mode always gets the built-in form, whose post the web
 * restores before it goes upstream.
 */
export function connectWidgetConfig(
  cfg: {
    UTILITY_CONNECT_WIDGET: "builtin" | "provider";
    PROVIDER_WIDGET_SCRIPT_URL?: string;
    PROVIDER_WIDGET_KEY?: string;
  },
  demoMode = false,
): ConnectWidgetConfig {
  if (
    !demoMode &&
    cfg.UTILITY_CONNECT_WIDGET === "provider" &&
    cfg.PROVIDER_WIDGET_SCRIPT_URL &&
    cfg.PROVIDER_WIDGET_KEY
  ) {
    return {
      kind: "provider",
      scriptUrl: cfg.PROVIDER_WIDGET_SCRIPT_URL,
      widgetKey: cfg.PROVIDER_WIDGET_KEY,
    };
  }
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
 * The global the provider's script is expected to define (documented in docs/api/accounts.md):
 * `open({ key, providerId, correlationId, container, onSuccess, onError })`.
 */
export type ProviderWidgetGlobal = {
  open(options: {
    key: string;
    providerId: string;
    correlationId: string;
    container: HTMLElement;
    onSuccess: (result: { correlationId: string }) => void;
    onError?: (error: unknown) => void;
  }): void;
};

export const CONNECT_INTENTS = { builtin: "connect", provider: "provider-connected" } as const;
