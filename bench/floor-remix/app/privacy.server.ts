import fs from "node:fs";
import { isValidElement, type ReactElement, type ReactNode } from "react";
import { htmlToElements } from "../../html-to-react";

/**
 * The product's privacy page (the HTML the bench saved to FLOOR_HTML) as React elements, split into what goes in
 * the document's head and body, without the product's own scripts and module preloads: the floor renders the
 * same page through Remix's own document, whose `<Scripts />` writes the floor's.
 */
type El = ReactElement<{ children?: ReactNode; rel?: string }>;
const elements = (node: ReactNode): El[] =>
  ([] as ReactNode[]).concat(node).filter((c): c is El => isValidElement(c));
const ownScript = (e: El) => e.type === "script" || (e.type === "link" && e.props.rel === "modulepreload");

const parsed = htmlToElements(fs.readFileSync(process.env.FLOOR_HTML!, "utf8")) as El;
const document = elements(parsed.props.children).find((e) => e.type === "html");
if (!document) throw new Error("FLOOR_HTML: no <html> element");
const part = (tag: string) =>
  elements(elements(document.props.children).find((e) => e.type === tag)?.props.children).filter(
    (e) => !ownScript(e),
  );

export const headChildren = part("head");
export const bodyChildren = part("body");
