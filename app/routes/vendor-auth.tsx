import { getConfig, redirect } from "~/route-kit.server";

/** /vendor-auth: a full-page redirect to the vendor-authorisation address (rule vendor-auth-redirect, docs/rules.md). */
export const loader = () => redirect(getConfig().VENDOR_AUTH_URL);
