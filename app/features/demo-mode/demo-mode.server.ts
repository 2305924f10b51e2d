import { z } from "zod/v4";
import type { ApiClient } from "~/server/upstream/api-client.server";

// The anonymisation itself is applied by the api client (app/server/upstream/upstream.server.ts#getApi).

const demoSchema = z.object({ isDemoMode: z.boolean() });

export const getDemoMode = (api: ApiClient) => api.get("/demo-mode", { schema: demoSchema });
export const setDemoMode = (api: ApiClient, on: boolean) =>
  api.put("/demo-mode", { body: { isDemoMode: on }, schema: demoSchema });
