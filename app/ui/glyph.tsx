/**
 * A decorative symbol (hidden from screen readers) written as an HTML character reference, so that our own
 * markup stays Latin-1. A page whose HTML has no character above U+00FF is a one-byte string in V8: half the
 * memory, and a 95,000-character page stays under the 128 KiB above which V8 puts a string in its large-object
 * space, mapped afresh each time (expensive where page faults are, as on this project's VMs). Browsers and text
 * browsers show the same character either way. Add a symbol here rather than typing it into JSX.
 */
export const GLYPHS = {
  triangleUp: "&#9650;",
  triangleDown: "&#9660;",
  upDownArrow: "&#8597;",
  smallTriangleDown: "&#9662;",
  smallTriangleRight: "&#9656;",
  emDash: "&#8212;",
} as const;

export type GlyphName = keyof typeof GLYPHS;

export function Glyph({
  name,
  className,
  spaced = false,
}: {
  name: GlyphName;
  className?: string;
  /** A space either side of the symbol, inside the same span. */
  spaced?: boolean;
}) {
  const html = spaced ? ` ${GLYPHS[name]} ` : GLYPHS[name];
  return <span aria-hidden="true" className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
