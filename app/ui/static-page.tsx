import { useMatches } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * Pages that never hydrate: the email deep-link pages (token login, password reset, thermostat
 * dismissal, fix-my-bill) are complete server-rendered HTML, so they ship no React, no route chunks and no
 * modulepreloads — only the small inline `PAGE_SCRIPT` below. A route opts in with
 * `export const handle = NO_SCRIPTS;`; root.tsx reads it through `usePageScripts()`. Links from such a page
 * to the app are plain links (a full document load), and its forms are plain POSTs.
 */
export const NO_SCRIPTS = { scripts: false } as const;

/** False when any matched route's `handle` says `{ scripts: false }`. */
export function usePageScripts(): boolean {
  const matches = useMatches();
  return !matches.some((m) => (m.handle as { scripts?: unknown } | undefined)?.scripts === false);
}

/**
 * The whole JavaScript of a page without hydration, inline (with the CSP nonce), a few hundred bytes:
 * - browser errors and unhandled rejections go to `/client-errors` (the same report as app/ui/client-errors.ts,
 *   at most 5 a page, each message once; the query string never leaves);
 * - each `[data-countdown]` element's `.countdown` counts down to 0 each second. The redirect itself is the
 *   page's `<meta http-equiv="refresh">` (`StaticCountdown`), the same with and without JavaScript.
 * ES5 on purpose: no build step touches it. No double-submit guard: Chromium sends a form once when its
 * button is pressed twice in a row (tests/e2e/email-pages.spec.ts checks it), so the pages need none.
 */
export const PAGE_SCRIPT = `(function(w,d){var n=0,s={};function r(k,e){var m=String(e&&e.message||e||"Error").slice(0,1000);if(n>4||s[k+m])return;s[k+m]=1;n++;try{fetch("/client-errors",{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify({kind:k,name:e&&e.name?String(e.name).slice(0,100):void 0,message:m,stack:e&&e.stack?String(e.stack).slice(0,6000):void 0,page:location.pathname.slice(0,2000)}),keepalive:!0,credentials:"same-origin"}).catch(function(){})}catch(x){}}
w.addEventListener("error",function(v){if(v.message||v.error)r("error",v.error||v.message)});
w.addEventListener("unhandledrejection",function(v){r("unhandledrejection",v.reason)});
[].forEach.call(d.querySelectorAll("[data-countdown]"),function(c){var t=Date.now(),s=+c.getAttribute("data-countdown"),o=c.querySelector(".countdown"),i=setInterval(function(){var l=Math.max(0,s-Math.floor((Date.now()-t)/1e3));if(o)o.textContent=String(l);if(!l)clearInterval(i)},250)})})(window,document)`;

/**
 * A visible countdown, then the browser goes to `to`, without hydration: the refresh is a
 * `<meta http-equiv="refresh">` (with or without JavaScript, announced by the text), and `PAGE_SCRIPT` keeps the
 * number current when scripts run. `children` receives the starting number inside `<span class="countdown">`.
 */
export function StaticCountdown({
  seconds,
  to,
  children,
}: {
  seconds: number;
  to: string;
  children: (left: ReactNode) => ReactNode;
}) {
  return (
    <>
      <meta httpEquiv="refresh" content={`${seconds};url=${to}`} />
      <p aria-live="polite" data-testid="countdown" data-countdown={seconds}>
        {children(<span className="countdown">{seconds}</span>)}
      </p>
    </>
  );
}
