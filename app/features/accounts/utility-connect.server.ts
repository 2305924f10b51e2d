import { getConfig } from "~/server/config.server";
import { connectWidgetConfig } from "./utility-connect";

/**
 * The configured connect widget (UTILITY_CONNECT_WIDGET, PROVIDER_WIDGET_SCRIPT_URL, PROVIDER_WIDGET_KEY);
 * always the built-in form for a user in demo mode.
 */
export const getConnectWidgetConfig = (demoMode = false) => connectWidgetConfig(getConfig(), demoMode);
