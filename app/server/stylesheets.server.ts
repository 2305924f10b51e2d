import fs from "node:fs";
import path from "node:path";
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import { stylesheetSource } from "~/ui/critical-css";
import { ASSETS_URL, assetFile } from "../../shared/build-output.mjs";

/**
 * The built stylesheets' text, for the page's inline styles on a first visit (app/ui/critical-css.tsx).
 * Files are read once each from the build's assets folder (shared/build-output.mjs: where server.ts serves
 * `/build/` from, relative to the working directory) and kept: a build's assets never change under the same name.
 */
const texts = new Map<string, string | undefined>();
const SHEET = /^_assets\/[\w-]+\.css$/;

export function readStylesheet(href: string): string | undefined {
  if (texts.has(href)) return texts.get(href);
  let text: string | undefined;
  const file =
    href.startsWith(ASSETS_URL) && SHEET.test(href.slice(ASSETS_URL.length)) ? assetFile(href) : undefined;
  if (file) {
    try {
      text = fs.readFileSync(path.resolve(file), "utf8");
    } catch {
      text = undefined;
    }
    // Inside <style> only "</style" could end the element early; a sheet that has "</" stays a link.
    if (text?.includes("</")) text = undefined;
  }
  texts.set(href, text);
  return text;
}

/** The cookie that says this browser has the stylesheets of this build in its cache. */
const COOKIE = "styles";

/** The build's stylesheet version: the app stylesheet's hashed file name (it changes with the CSS). */
export const stylesVersion = (appStylesheetHref: string) => path.basename(appStylesheetHref, ".css");

/**
 * Whether this request's page should carry its styles inline: true until the browser has loaded this build's
 * stylesheets once (the cookie set below). The cookie can outlive the cache; that visit then waits for the
 * stylesheet once, as every visit did before.
 */
export function inlineStyles(request: Request, version: string) {
  stylesheetSource.read ??= readStylesheet;
  const cookies = parseCookie(request.headers.get("Cookie") ?? "");
  return cookies[COOKIE] !== version;
}

/** Set with the first page that carries its styles inline; that page also loads the stylesheets (cached a year). */
export function stylesCookie(version: string) {
  return serializeCookie(COOKIE, version, {
    path: "/",
    maxAge: 365 * 24 * 3600,
    sameSite: "lax",
    httpOnly: true,
    secure: process.env.NODE_ENV === "production",
  });
}
