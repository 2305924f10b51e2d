import { getConfig } from "~/server/config.server";
import { redirect } from "@remix-run/node";

/** /vendor-auth: a full-page redirect to the vendor-authorisation address (rule vendor-auth-redirect, docs/rules.md). */
export const loader = () => redirect(getConfig().VENDOR_AUTH_URL);
