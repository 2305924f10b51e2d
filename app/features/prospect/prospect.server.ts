import { z } from "zod";
import type { ApiClient } from "~/server/api-client.server";
import { getConfig } from "~/server/config.server";
import { createKeyedLimiter, type LimitResult } from "~/server/rate-limit.server";
import { clientIpFromHeaders, type ProspectForm } from "./prospect";

const recordSchema = z.object({ id: z.number(), correlationId: z.string() });

export function createProspect(api: ApiClient, form: ProspectForm) {
  return api.post("/prospect-analysis", {
    body: {
      arcadiaProviderId: form.arcadiaProvider,
      firstName: form.firstName,
      email: form.emailAddress,
      prospectName: form.companyName,
      rateQuote: form.rateQuote === "on",
      communicationsConsent: form.communicationsConsent === "on",
      utilityData: null,
    },
    schema: recordSchema,
  });
}

export function updateProspect(
  api: ApiClient,
  id: number,
  p: { arcadiaProviderId: string; prospectName: string; email: string; utilityData: unknown },
) {
  return api.put(`/prospect-analysis/${id}`, { body: p, schema: recordSchema });
}

let limiters:
  | {
      email: ReturnType<typeof createKeyedLimiter>;
      ip: ReturnType<typeof createKeyedLimiter>;
      all: ReturnType<typeof createKeyedLimiter>;
    }
  | undefined;

/**
 * The prospect form's rate limit. Remix does not see the socket address, so it counts per email address
 * (5 an hour), per client IP only when TRUST_PROXY > 0 makes x-forwarded-for trustworthy (20 an hour), and a
 * coarse counter for the whole process (300 an hour) that caps what a bot rotating emails can do.
 */
export async function hitProspectLimit(request: Request, email: string): Promise<LimitResult | null> {
  const cfg = getConfig();
  limiters ??= {
    email: createKeyedLimiter("prospect-email", 5, 60 * 60_000),
    ip: createKeyedLimiter("prospect-ip", 20, 60 * 60_000),
    all: createKeyedLimiter("prospect-all", 300, 60 * 60_000),
  };
  const ip = clientIpFromHeaders(request.headers.get("x-forwarded-for"), cfg.TRUST_PROXY);
  const hits = await Promise.all([
    limiters.email.hit(email),
    ip ? limiters.ip.hit(ip) : null,
    limiters.all.hit("all"),
  ]);
  return hits.find((h): h is LimitResult => Boolean(h?.limited)) ?? null;
}
