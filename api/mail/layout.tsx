import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from "@react-email/components";
import { render } from "@react-email/render";
import { BRAND } from "../lib/brand";

/**
 * Every email the api sends is one `EmailDoc`: a heading and blocks, written once and rendered twice, as HTML
 * through React Email (one layout for every email) and as plain text by `toText`. Both parts come from the same
 * blocks, so the text part carries every link of the HTML one, each with its words.
 */

/** A link with words that make sense on their own ("Review the bill", not "click here"). */
export type EmailLink = { href: string; label: string };

export type Block =
  | { type: "p"; text: string }
  /** A one-time code, large and easy to copy. */
  | { type: "code"; text: string }
  /** A main action: a button in HTML, a labelled address in text. */
  | { type: "button"; link: EmailLink; secondary?: boolean }
  /** Label and value pairs (a bill's figures). */
  | { type: "facts"; rows: [string, string][] }
  /** A sub-heading (a location in a digest). */
  | { type: "h2"; text: string }
  /** A heading under a sub-heading (one alert of a location in a grouped alert email). */
  | { type: "h3"; text: string }
  /** Lines, each with an optional link to its page. */
  | { type: "list"; items: { text: string; link?: EmailLink }[] };

export type EmailDoc = {
  subject: string;
  /** The inbox preview line. */
  preview: string;
  heading: string;
  blocks: Block[];
  /** The web app's public address (the api's `webBaseUrl`); every link is absolute to it. */
  baseUrl: string;
  /**
   * Notifications only: the recipient's unsubscribe address and what it stops; one per kind of email a grouped
   * alert email holds.
   */
  unsubscribe?: Unsubscribe | Unsubscribe[];
  /**
   * Whether the footer links to Manage preferences (default yes). Sign-in emails say no: they go to people who
   * are signed out, whom that page would only send to the login page, and they cannot be turned off anyway.
   */
  preferencesLink?: boolean;
};

type Unsubscribe = { href: string; what: string };
const unsubscribes = (doc: EmailDoc): Unsubscribe[] =>
  doc.unsubscribe ? (Array.isArray(doc.unsubscribe) ? doc.unsubscribe : [doc.unsubscribe]) : [];

export const absolute = (baseUrl: string, path: string) => new URL(path, baseUrl).href;

/**
 * The app's colour tokens (app/styles/app.css `:root`: --text, --muted, --primary, --border, --bg), so a
 * button in an email looks like the button it opens; tests/unit/email-templates.test.ts holds them equal.
 */
export const EMAIL_COLORS = {
  text: "#16212b",
  muted: "#4f5d6b",
  brand: "#0b5cad",
  border: "#d5dce3",
  bg: "#f5f7f9",
} as const;
const colors = EMAIL_COLORS;
const font = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';

const s = {
  body: { backgroundColor: colors.bg, color: colors.text, fontFamily: font, margin: 0, padding: "16px 0" },
  container: {
    backgroundColor: "#ffffff",
    border: `1px solid ${colors.border}`,
    borderRadius: "8px",
    maxWidth: "560px",
    width: "100%",
    padding: "24px",
    boxSizing: "border-box" as const,
  },
  brand: { color: colors.brand, fontSize: "16px", fontWeight: 700, margin: "0 0 16px" },
  h1: { fontSize: "22px", lineHeight: "28px", margin: "0 0 16px" },
  h2: {
    fontSize: "17px",
    lineHeight: "24px",
    margin: "20px 0 8px",
    paddingTop: "16px",
    borderTop: `1px solid ${colors.border}`,
  },
  h3: { fontSize: "16px", lineHeight: "22px", margin: "16px 0 8px" },
  p: { fontSize: "16px", lineHeight: "24px", margin: "0 0 16px" },
  code: {
    fontSize: "28px",
    fontWeight: 700,
    letterSpacing: "6px",
    fontFamily: "ui-monospace, Menlo, Consolas, monospace",
    margin: "0 0 16px",
  },
  button: {
    backgroundColor: colors.brand,
    borderRadius: "6px",
    color: "#ffffff",
    display: "inline-block",
    fontSize: "16px",
    fontWeight: 600,
    padding: "12px 20px",
    textDecoration: "none",
    margin: "0 8px 12px 0",
  },
  secondary: {
    backgroundColor: "#ffffff",
    border: `2px solid ${colors.brand}`,
    borderRadius: "6px",
    color: colors.brand,
    display: "inline-block",
    fontSize: "16px",
    fontWeight: 600,
    padding: "10px 18px",
    textDecoration: "none",
    margin: "0 8px 12px 0",
  },
  factLabel: { color: colors.muted, fontSize: "14px", padding: "4px 12px 4px 0", verticalAlign: "top" },
  factValue: { fontSize: "15px", fontWeight: 600, padding: "4px 0", verticalAlign: "top" },
  li: { fontSize: "15px", lineHeight: "22px", margin: "0 0 8px" },
  link: { color: colors.brand, textDecoration: "underline" },
  hr: { borderColor: colors.border, margin: "24px 0 16px" },
  footer: { color: colors.muted, fontSize: "13px", lineHeight: "20px", margin: "0 0 8px" },
};

function BlockView({ block }: { block: Block }) {
  switch (block.type) {
    case "p":
      return <Text style={s.p}>{block.text}</Text>;
    case "code":
      return <Text style={s.code}>{block.text}</Text>;
    case "h2":
      return (
        <Heading as="h2" style={s.h2}>
          {block.text}
        </Heading>
      );
    case "h3":
      return (
        <Heading as="h3" style={s.h3}>
          {block.text}
        </Heading>
      );
    case "button":
      return (
        <Button href={block.link.href} style={block.secondary ? s.secondary : s.button}>
          {block.link.label}
        </Button>
      );
    case "facts":
      return (
        <table role="presentation" cellPadding={0} cellSpacing={0} style={{ margin: "0 0 16px" }}>
          <tbody>
            {block.rows.map(([label, value]) => (
              <tr key={label}>
                <td style={s.factLabel}>{label}</td>
                <td style={s.factValue}>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      );
    case "list":
      return (
        <ul style={{ margin: "0 0 16px", paddingLeft: "20px" }}>
          {block.items.map((item, i) => (
            <li key={i} style={s.li}>
              {item.text}
              {item.link ? (
                <>
                  {" "}
                  <Link href={item.link.href} style={s.link}>
                    {item.link.label}
                  </Link>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      );
  }
}

/** The one layout: language, preview line, brand, heading, the blocks, and the footer. */
export function EmailLayout({ doc }: { doc: EmailDoc }) {
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <title>{doc.subject}</title>
        <meta name="color-scheme" content="light" />
      </Head>
      <Preview>{doc.preview}</Preview>
      <Body style={s.body}>
        <Container style={s.container}>
          <Text style={s.brand}>{BRAND}</Text>
          <Heading as="h1" style={s.h1}>
            {doc.heading}
          </Heading>
          {doc.blocks.map((block, i) => (
            <BlockView key={i} block={block} />
          ))}
          <Hr style={s.hr} />
          <Section>
            {footerLinks(doc).length > 0 ? (
              <Text style={s.footer}>
                {footerLinks(doc).map((l, i) => (
                  <span key={l.href}>
                    {i > 0 ? " · " : null}
                    <Link href={l.href} style={s.link}>
                      {l.label}
                    </Link>
                  </span>
                ))}
              </Text>
            ) : null}
            <Text style={s.footer}>
              {BRAND} · energy management for your locations. You receive this email because you have an{" "}
              {BRAND} account.
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** The footer's links, in the order the HTML shows them. */
function footerLinks(doc: EmailDoc): EmailLink[] {
  return [
    ...(doc.preferencesLink === false
      ? []
      : [{ href: absolute(doc.baseUrl, "/settings"), label: "Manage preferences" }]),
    ...unsubscribes(doc).map((u) => ({ href: u.href, label: `Unsubscribe from ${u.what}` })),
  ];
}

/** Every link of the email, body first, then the footer's. */
export function docLinks(doc: EmailDoc): EmailLink[] {
  const body: EmailLink[] = [];
  for (const b of doc.blocks) {
    if (b.type === "button") body.push(b.link);
    if (b.type === "list") for (const item of b.items) if (item.link) body.push(item.link);
  }
  return [...body, ...footerLinks(doc)];
}

/** The plain-text part: the same blocks, each link written as its words and its address. */
export function toText(doc: EmailDoc): string {
  const out: string[] = [doc.heading, ""];
  for (const b of doc.blocks) {
    if (b.type === "p" || b.type === "code") out.push(b.text, "");
    else if (b.type === "h2") out.push(b.text.toUpperCase(), "");
    else if (b.type === "h3") out.push(b.text, "-".repeat(Math.min(b.text.length, 60)), "");
    else if (b.type === "button") out.push(`${b.link.label}:`, b.link.href, "");
    else if (b.type === "facts") out.push(...b.rows.map(([k, v]) => `${k}: ${v}`), "");
    else
      out.push(
        ...b.items.flatMap((item) =>
          item.link ? [`- ${item.text}`, `  ${item.link.label}: ${item.link.href}`] : [`- ${item.text}`],
        ),
        "",
      );
  }
  out.push("--");
  for (const l of footerLinks(doc)) out.push(`${l.label}: ${l.href}`);
  out.push(`${BRAND} · energy management for your locations.`);
  return out.join("\n");
}

export type RenderedEmail = { subject: string; html: string; text: string; links: string[] };

/** The email's two parts and its links (body links first: tests and the outbox read `links[0]`). */
export async function renderEmail(doc: EmailDoc, text?: string): Promise<RenderedEmail> {
  const html = await render(<EmailLayout doc={doc} />);
  return { subject: doc.subject, html, text: text ?? toText(doc), links: docLinks(doc).map((l) => l.href) };
}
