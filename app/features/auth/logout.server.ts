import type { ApiClient } from "~/server/upstream/api-client.server";

/*
 * Signing out, server side (app/routes/logout.tsx; the root redirect, app/routes/_index.tsx, signs a large
 * commercial client's person out too): the upstream session is revoked.
 */

export const logoutUpstream = (api: ApiClient) => api.post("/auth/logout");
