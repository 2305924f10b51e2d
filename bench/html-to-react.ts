import { createElement, Fragment, type ReactElement, type ReactNode } from "react";

/**
 * Server-rendered HTML (well formed, as React writes it) back into React elements, for the bench's bare floor:
 * elements, attributes (renamed to React's props), text, raw <script>/<style> contents. Not a general HTML parser.
 */
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
const RAW = new Set(["script", "style"]);
const PROPS: Record<string, string> = {
  class: "className",
  for: "htmlFor",
  charset: "charSet",
  tabindex: "tabIndex",
  crossorigin: "crossOrigin",
  "http-equiv": "httpEquiv",
  autocomplete: "autoComplete",
  maxlength: "maxLength",
  readonly: "readOnly",
  viewbox: "viewBox",
};
const BOOLEAN = new Set([
  "hidden",
  "disabled",
  "checked",
  "open",
  "required",
  "selected",
  "multiple",
  "async",
  "defer",
  "novalidate",
  "autofocus",
]);
const TOKEN =
  /<!--[\s\S]*?-->|<!DOCTYPE[^>]*>|<\/([A-Za-z][\w-]*)\s*>|<([A-Za-z][\w-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/gi;
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

const decode = (s: string) =>
  s.replace(/&(#x[\da-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (_, e: string) => {
    const l = e.toLowerCase();
    if (l.startsWith("#x")) return String.fromCodePoint(parseInt(l.slice(2), 16));
    if (l.startsWith("#")) return String.fromCodePoint(parseInt(l.slice(1), 10));
    return ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" } as Record<string, string>)[
      l
    ];
  });

const styleObject = (css: string) =>
  Object.fromEntries(
    css
      .split(";")
      .map((d) => d.split(/:(.*)/s).map((x) => x.trim()))
      .filter(([k, v]) => k && v)
      .map(([k, v]) => [
        k.startsWith("--") ? k : k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
        v,
      ]),
  );

function props(attrs: string) {
  const out: Record<string, unknown> = {};
  for (const m of attrs.matchAll(ATTR)) {
    const name = m[1];
    const value = decode(m[2] ?? m[3] ?? m[4] ?? "");
    const lower = name.toLowerCase();
    if (lower === "style") out.style = styleObject(value);
    else if (BOOLEAN.has(lower))
      out[lower === "novalidate" ? "noValidate" : lower === "autofocus" ? "autoFocus" : lower] = true;
    else out[PROPS[lower] ?? name] = value;
  }
  return out;
}

type Node = { tag: string; props: Record<string, unknown>; children: ReactNode[] };

export function htmlToElements(html: string): ReactElement {
  const root: Node = { tag: "", props: {}, children: [] };
  const stack: Node[] = [root];
  let at = 0;
  const text = (s: string) => {
    if (s) stack[stack.length - 1].children.push(decode(s));
  };
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(html); m; m = TOKEN.exec(html)) {
    text(html.slice(at, m.index));
    at = TOKEN.lastIndex;
    const [whole, close, open, attrs, selfClose] = m;
    if (whole.startsWith("<!")) continue;
    if (close) {
      let i = stack.length - 1;
      while (i > 0 && stack[i].tag.toLowerCase() !== close.toLowerCase()) i--;
      if (i > 0) {
        while (stack.length > i) {
          const n = stack.pop()!;
          stack[stack.length - 1].children.push(createElement(n.tag, n.props, ...n.children));
        }
      }
      continue;
    }
    const tag = open.toLowerCase() === open ? open : open.toLowerCase() === "svg" ? "svg" : open;
    const p = props(attrs ?? "");
    const parent = stack[stack.length - 1];
    if (RAW.has(tag.toLowerCase())) {
      const end = html.toLowerCase().indexOf(`</${tag.toLowerCase()}`, at);
      const body = html.slice(at, end);
      parent.children.push(createElement(tag, { ...p, dangerouslySetInnerHTML: { __html: body } }));
      at = html.indexOf(">", end) + 1;
      TOKEN.lastIndex = at;
    } else if (selfClose || VOID.has(tag.toLowerCase())) {
      parent.children.push(createElement(tag, p));
    } else stack.push({ tag, props: p, children: [] });
  }
  text(html.slice(at));
  while (stack.length > 1) {
    const n = stack.pop()!;
    stack[stack.length - 1].children.push(createElement(n.tag, n.props, ...n.children));
  }
  const top = root.children.filter((c) => typeof c !== "string" || c.trim());
  return top.length === 1 ? (top[0] as ReactElement) : createElement(Fragment, null, ...top);
}
