/**
 * Why a redirect happened, said on arrival as a one-shot toast (rule redirect-says-why, docs/rules.md). The
 * flash rides in the sealed session cookie, is read and cleared by the root loader: no server state changes.
 */
export const LOCATION_UNAVAILABLE = "That location isn't available to your account";
export const PAGE_NOT_FOUND = "That page doesn't exist";
