import type { ParsedMail } from "mailparser";

/** A link as a person sees it in the HTML part: where it goes and the words it shows. */
export type MailLink = { href: string; label: string };

/**
 * An email as its reader meets it, from the message a real SMTP server received (parsed by `mailparser`):
 * `seq` is its place in the receiver's arrival order (marks compare with it); `links` are the HTML part's
 * anchors in reading order; `code` is the login code the text shows, if any.
 */
export type ReceivedEmail = {
  seq: number;
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  anchors: MailLink[];
  code: string | null;
  messageId: string | null;
  /** `List-Unsubscribe` and `List-Unsubscribe-Post`, as a mail client reads them. */
  listUnsubscribe: string | null;
  listUnsubscribePost: string | null;
};

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Decodes the character references an HTML serializer writes (named basics and numeric ones). */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#")
      return String.fromCodePoint(
        ref[1].toLowerCase() === "x" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10),
      );
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/**
 * The anchors of an HTML part in document order, with their visible words (tags, comments and extra white
 * space removed): the links a person can tap, whatever the plain-text part says.
 */
export function anchorsOf(html: string): MailLink[] {
  const links: MailLink[] = [];
  for (const [, attrs, inner] of html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)) {
    const href = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(attrs);
    if (!href) continue;
    const label = decodeEntities(inner.replace(/<!--[\s\S]*?-->/g, "").replace(/<[^>]+>/g, ""))
      .replace(/\s+/g, " ")
      .trim();
    links.push({ href: decodeEntities(href[1] ?? href[2]).trim(), label });
  }
  return links;
}

/** The six-digit login code a sign-in email shows in its text ("Your login code is 123456."). */
export const codeOf = (text: string) => /\blogin code is (\d{6})\b/.exec(text)?.[1] ?? null;

const headerText = (parsed: ParsedMail, name: string) => {
  const value = parsed.headers.get(name);
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return value;
  // mailparser parses some headers into objects; the raw line is in headerLines.
  const line = parsed.headerLines.find((l) => l.key === name)?.line;
  return line ? line.slice(line.indexOf(":") + 1).trim() : JSON.stringify(value);
};

/** Reads a received message as its reader would: subject, text and HTML parts, the HTML's links. */
export function readEmail(
  seq: number,
  envelope: { from: string; to: string[] },
  parsed: ParsedMail,
): ReceivedEmail {
  const html = typeof parsed.html === "string" ? parsed.html : "";
  const text = parsed.text ?? "";
  const anchors = anchorsOf(html);
  return {
    seq,
    to: envelope.to.map((a) => a.toLowerCase()),
    from: envelope.from,
    subject: parsed.subject ?? "",
    text,
    html,
    links: anchors.map((a) => a.href),
    anchors,
    code: codeOf(text),
    messageId: parsed.messageId ?? null,
    listUnsubscribe: headerText(parsed, "list-unsubscribe"),
    listUnsubscribePost: headerText(parsed, "list-unsubscribe-post"),
  };
}
