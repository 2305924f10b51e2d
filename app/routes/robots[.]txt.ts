import { robotsTxt } from "~/features/public/seo";

/** Public crawler rules: the public pages, not the application (see app/features/public/seo.ts). */
export const loader = () =>
  new Response(robotsTxt(), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
