import { z } from "zod";
import type { ApiClient } from "~/server/api-client.server";
import { registerUpstreamTransform } from "~/server/upstream.server";
import { anonymise } from "./demo-mode";

// Every upstream answer is anonymised on the server while the session user has demo mode on.
registerUpstreamTransform((body, user) => (user?.isDemoMode ? anonymise(body) : body));

/** True once the transform is registered (importing this module registers it). */
export const demoModeRegistered = true;

const demoSchema = z.object({ isDemoMode: z.boolean() });

export const getDemoMode = (api: ApiClient) => api.get("/demo-mode", { schema: demoSchema });
export const setDemoMode = (api: ApiClient, on: boolean) =>
  api.put("/demo-mode", { body: { isDemoMode: on }, schema: demoSchema });
