/**
 * The demo's outbox as pages a person can read (GET /api/dev/outbox in a browser): a list of the emails, newest
 * first, and each email with its headers, its HTML part shown in a sandboxed frame, its text part, and its
 * links to click. Plain HTML with no script; every value from the database is escaped.
 */
import type { OutboxRow } from "./outbox-row";

/**
 * The pages' policy: no script, no requests but images, nothing may frame them. The email's frame (a
 * `srcdoc`, which inherits this policy) may use inline styles and images but runs nothing, and its sandbox
 * (no `allow-scripts`, no `allow-same-origin`) gives it an opaque origin; its links open in a new tab.
 */
export const OUTBOX_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data: https: http:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

/** What each status means, for the reader of the page. */
const STATUS_MEANING: Record<string, string> = {
  outbox: "kept here: no mail server is configured",
  queued: "waiting for the mail server",
  sending: "being sent",
  sent: "accepted by the mail server",
  failed: "not delivered",
};

/** Plain text with every http(s) URL made a link that opens in a new tab; everything else escaped. */
export function linkify(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g)) {
    parts.push(escapeHtml(text.slice(last, match.index)), anchor(match[0]));
    last = match.index + match[0].length;
  }
  parts.push(escapeHtml(text.slice(last)));
  return parts.join("");
}

const anchor = (href: string, label = href) =>
  `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${escapeHtml(label)}</a>`;

/** Every http(s) link of an email: the ones it was written with, then those of its HTML and text parts. */
export function linksOf(row: Pick<OutboxRow, "links_json" | "html" | "text">): string[] {
  const found = new Set<string>(JSON.parse(row.links_json) as string[]);
  const decode = (s: string) =>
    s
      .replace(/&amp;/g, "&")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">");
  for (const m of (row.html ?? "").matchAll(/href\s*=\s*["'](https?:\/\/[^"']+)["']/gi))
    found.add(decode(m[1]));
  for (const m of row.text.matchAll(/https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g)) found.add(m[0]);
  return [...found].filter((href) => /^https?:\/\//i.test(href));
}

/** The email's HTML with a `<base target="_blank">`, so its links open in a tab of their own (not the frame). */
export function framedHtml(html: string): string {
  const base = '<base target="_blank">';
  const head = /<head\b[^>]*>/i.exec(html);
  if (head)
    return html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length);
  const root = /<html\b[^>]*>/i.exec(html);
  if (root)
    return html.slice(0, root.index + root[0].length) + base + html.slice(root.index + root[0].length);
  return base + html;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 1rem auto; max-width: 72rem; padding: 0 1rem; color: #1a1a1a; }
table { border-collapse: collapse; width: 100%; }
form { margin: 0 0 1rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #ddd; vertical-align: top; }
th { font-weight: 600; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dt { font-weight: 600; } dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f6f6; padding: .75rem; }
iframe { width: 100%; max-width: 40rem; height: 70vh; border: 1px solid #bbb; background: #fff; }
.status-failed { color: #a00; font-weight: 600; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** The list: newest first, each subject opening its email. */
export function renderOutboxList(rows: OutboxRow[], filter: string | undefined): string {
  const items = rows
    .map(
      (m) => `<tr>
<td><time datetime="${escapeHtml(m.sent_at)}">${escapeHtml(m.sent_at.replace("T", " ").replace(/\.\d+Z$/, " UTC"))}</time></td>
<td>${escapeHtml(m.to_email)}</td>
<td><a href="outbox/${m.id}">${escapeHtml(m.subject)}</a></td>
<td>${escapeHtml(m.kind)}</td>
<td class="status-${escapeHtml(m.status)}" title="${escapeHtml(STATUS_MEANING[m.status] ?? "")}">${escapeHtml(m.status)}</td>
</tr>`,
    )
    .join("\n");
  const heading = filter ? `Outbox: emails to ${escapeHtml(filter)}` : "Outbox";
  return page(
    filter ? `Outbox: ${filter}` : "Outbox",
    `<h1>${heading}</h1>
<p>Every email the demo api wrote, newest first (50 at most). Open one to read it and follow its links.</p>
<form method="get" action="outbox"><label>Recipient <input type="email" name="email" value="${escapeHtml(filter ?? "")}"></label> <button>Show</button>${filter ? ' <a href="outbox">All emails</a>' : ""}</form>
${
  rows.length
    ? `<table>
<thead><tr><th scope="col">Written</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Kind</th><th scope="col">Status</th></tr></thead>
<tbody>
${items}
</tbody>
</table>`
    : "<p>No emails yet.</p>"
}`,
  );
}

/** One email: its headers, its HTML part in a sandboxed frame, its text part and its links. */
export function renderOutboxMessage(row: OutboxRow, from: string | undefined): string {
  const extra = Object.entries(JSON.parse(row.headers_json) as Record<string, string>);
  const fields: [string, string][] = [
    ["From", from ?? "(not sent by SMTP: no mail server is configured)"],
    ["To", row.to_email],
    ["Subject", row.subject],
    ["Date", row.sent_at],
    ["Message-ID", row.message_id ?? ""],
    ...extra,
    ["Kind", row.kind],
    ["Status", `${row.status}: ${STATUS_MEANING[row.status] ?? ""}`],
    ["Attempts", String(row.attempts)],
    ...(row.next_attempt_at && row.status === "queued"
      ? [["Next attempt", row.next_attempt_at] as [string, string]]
      : []),
    ...(row.delivered_at ? [["Delivered", row.delivered_at] as [string, string]] : []),
    ...(row.last_error ? [["Last error", row.last_error] as [string, string]] : []),
  ];
  const links = linksOf(row);
  return page(
    row.subject,
    `<p><a href="../outbox">All emails</a></p>
<h1>${escapeHtml(row.subject)}</h1>
<h2>Headers</h2>
<dl>
${fields.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("\n")}
</dl>
${
  row.html
    ? `<h2>HTML part</h2>
<iframe title="The email's HTML part" sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" srcdoc="${escapeHtml(framedHtml(row.html))}"></iframe>`
    : "<p>This email has no HTML part.</p>"
}
<h2>Text part</h2>
<pre>${linkify(row.text)}</pre>
<h2>Links</h2>
${links.length ? `<ul>\n${links.map((href) => `<li>${anchor(href)}</li>`).join("\n")}\n</ul>` : "<p>None.</p>"}`,
  );
}
