import { redirect } from "@remix-run/node";
import { getConfig } from "~/server/config.server";

/** /vendor-auth: a full-page redirect to the vendor-authorisation address (spec part 1 §2). */
export const loader = () => redirect(getConfig().VENDOR_AUTH_URL);
