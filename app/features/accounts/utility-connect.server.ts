import { getConfig } from "~/server/config.server";
import { connectWidgetConfig } from "./utility-connect";

/**
 * The configured connect widget (UTILITY_CONNECT_WIDGET, ARCADIA_CONNECT_SCRIPT_URL); always the built-in form
 * for a user in demo mode.
 */
export const getConnectWidgetConfig = (demoMode = false) => connectWidgetConfig(getConfig(), demoMode);
