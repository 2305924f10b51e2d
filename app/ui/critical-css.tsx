import { Links, useMatches } from "@remix-run/react";
import { useState } from "react";

/**
 * First paint with the document: on a first visit the page carries its stylesheets inline (`<style>` under the
 * page's nonce, one per stylesheet of the matched routes, in `<links>` order) and a prefetch of each file at the
 * end of `<body>`. Nothing is render-blocking, so the browser paints as soon as the HTML is in, and the files land
 * in the cache for later visits. The root loader sets a cookie with that page; from then on the page has its
 * `<Links>` in `<head>` as usual, served from the cache (no request, no bytes). No JavaScript and no inline
 * event handler is involved (the CSP forbids them; the page must work with JavaScript off).
 *
 * The mode of a document is fixed for its life: the client reads it from the server's render (the root loader's
 * answer then) and keeps it, so a later revalidation that sees the cookie does not move the links.
 */

/**
 * A route's stylesheets are declared once, in its `handle` (`export const handle = { stylesheets: [styles] }`):
 * its `links` renders them as `<link>`s from there, and the first-visit inline styles below read the same list
 * through `useMatches()`, Remix's public API for the matched routes' handles. (Each route writes its `links` in
 * one line rather than importing a helper: a helper shared by the root and the routes would be one more script
 * file on every page, tests/ops/js-budget.test.ts.) A handle may say other things, or nothing.
 */
function handleStylesheets(handle: unknown): readonly string[] {
  const list = (handle as { stylesheets?: unknown } | undefined)?.stylesheets;
  return Array.isArray(list) ? list.filter((h): h is string => typeof h === "string") : [];
}

/** On the server: a built stylesheet's text by its href (installed by app/server/stylesheets.server.ts). */
export const stylesheetSource: { read?: (href: string) => string | undefined } = {};

/** In the browser: the inline styles the document arrived with, by href. */
const documentStyles = new Map<string, string>();

function styleText(href: string) {
  if (typeof document === "undefined") return stylesheetSource.read?.(href);
  if (!documentStyles.has(href)) {
    const el = [...document.querySelectorAll("style[data-href]")].find(
      (s) => s.getAttribute("data-href") === href,
    );
    if (el) documentStyles.set(href, el.textContent ?? "");
  }
  return documentStyles.get(href);
}

/**
 * The stylesheet hrefs of the matched routes, in the order `<Links>` renders them: each route declares them in
 * its `handle` (app/ui/route-styles.ts), which `useMatches()` gives us.
 */
function useStylesheetHrefs() {
  const hrefs: string[] = [];
  for (const match of useMatches())
    for (const href of handleStylesheets(match.handle)) if (!hrefs.includes(href)) hrefs.push(href);
  return hrefs;
}

/** Whether this document carries its styles inline: the server's answer, kept by the browser for the document's life. */
function useInlineMode(inline: boolean) {
  const hrefs = useStylesheetHrefs();
  const [mode] = useState(() =>
    typeof document === "undefined"
      ? // All or nothing: a page with one sheet missing inline would paint without it.
        inline && hrefs.every((href) => styleText(href) !== undefined)
      : document.querySelector("style[data-href]") !== null,
  );
  return mode;
}

/** In `<head>`: the inline styles on a first visit, otherwise Remix's `<Links>`. */
export function HeadStyles({ inline, nonce }: { inline: boolean; nonce: string }) {
  const mode = useInlineMode(inline);
  const hrefs = useStylesheetHrefs();
  if (!mode) return <Links />;
  // A sheet without text (a route reached later by client navigation) comes from its link in <body>.
  return (
    <>
      {hrefs.map((href) => {
        const text = styleText(href);
        return text === undefined ? null : (
          <style key={href} nonce={nonce} data-href={href} dangerouslySetInnerHTML={{ __html: text }} />
        );
      })}
    </>
  );
}

/**
 * At the end of `<body>`, before the scripts, on a first visit: a prefetch of each inline sheet, so the next page
 * finds it in the cache, blocking nothing. Not a second `<link rel="stylesheet">`: a copy of an early sheet that
 * loads after the inline text of a later one would win the cascade over it, and the page would shift. A sheet
 * with no inline text (a route reached later by client navigation) is linked as a stylesheet here.
 */
export function BodyStyles({ inline }: { inline: boolean }) {
  const mode = useInlineMode(inline);
  const hrefs = useStylesheetHrefs();
  if (!mode) return null;
  return (
    <>
      {hrefs.map((href) =>
        styleText(href) === undefined ? (
          <link key={href} rel="stylesheet" href={href} />
        ) : (
          <link key={href} rel="prefetch" as="style" href={href} />
        ),
      )}
    </>
  );
}
