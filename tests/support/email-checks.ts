import type { RenderedEmail } from "../../api/mail/layout";

/** Link words that say nothing on their own (WCAG 2.4.4). */
const VAGUE = /^(click here|here|link|this link|more|read more|click)$/i;

/**
 * What every email must be, read from its rendered parts: the language, one heading, every link absolute
 * (to the given origin) with words that make sense alone, no image (so no text in an image), and every link of
 * the HTML written out in the plain-text part. Returns the problems found (none: an empty list).
 */
export function emailProblems(mail: RenderedEmail, origin: string): string[] {
  const problems: string[] = [];
  const { html, text } = mail;
  if (!/<html[^>]*\slang="en"/.test(html)) problems.push("no lang on <html>");
  if ((html.match(/<h1[\s>]/g) ?? []).length !== 1) problems.push("not exactly one <h1>");
  if (/<img[\s>]/i.test(html)) problems.push("an image");
  const anchors = [...html.matchAll(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)];
  if (anchors.length === 0) problems.push("no link");
  for (const [, rawHref, inner] of anchors) {
    const href = rawHref.replaceAll("&amp;", "&");
    const words = inner
      .replace(/<[^>]+>/g, "")
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/&[a-z#0-9]+;/g, " ")
      .trim();
    if (!href.startsWith(`${origin}/`)) problems.push(`link not absolute to ${origin}: ${href}`);
    if (words.length < 4 || VAGUE.test(words)) problems.push(`link words say nothing alone: "${words}"`);
    if (!text.includes(href)) problems.push(`text part lacks ${href}`);
  }
  for (const l of mail.links) if (!text.includes(l)) problems.push(`text part lacks listed link ${l}`);
  return problems;
}
