import type { EntryContext } from "@remix-run/node";

/**
 * Remix's hydration data (single fetch: the loader data, encoded by turbo-stream) as the inline scripts that
 * `<RemixServer>`'s `StreamTransfer` would write after the document, read before rendering so that the page can
 * be rendered in one synchronous pass (`renderToString`) instead of React's streaming renderer.
 *
 * `StreamTransfer` reads one chunk of the stream per render, suspending in between; each chunk becomes a
 * `streamController.enqueue(…)` script inside a Suspense boundary of its own, and the end a `close()` script.
 * `handoffScripts` writes the very same bytes (the tests render both and compare).
 */

/** Every chunk of the context's hydration data stream, decoded as StreamTransfer decodes them; the stream is
 * then taken off the context, so that `<RemixServer>` renders no StreamTransfer of its own. */
export async function takeHydrationData(context: EntryContext): Promise<string[] | null> {
  const stream = context.serverHandoffStream;
  if (!stream) return null;
  context.serverHandoffStream = undefined;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    const text = decoder.decode(value, { stream: true });
    if (done) break;
    chunks.push(text);
  }
  return chunks;
}

const ESCAPES: Record<string, string> = {
  "&": "\\u0026",
  ">": "\\u003e",
  "<": "\\u003c",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};
const ESCAPE = /[&><\u2028\u2029]/g;

/** Remix's escapeHtml (@remix-run/react's markup.js): JSON safe inside an inline script. */
export const escapeScriptJson = (json: string) => json.replace(ESCAPE, (c) => ESCAPES[c]);

const NONCE_SAFE = /^[A-Za-z0-9+/=_-]*$/;

/**
 * The scripts StreamTransfer writes for these chunks (with React's Suspense markers), or "" when the page
 * rendered no `<Scripts>` (StreamTransfer writes nothing then either).
 */
export function handoffScripts(chunks: string[], context: EntryContext, nonce: string) {
  if (!context.renderMeta?.didRenderScripts) return "";
  if (!NONCE_SAFE.test(nonce)) throw new Error("a CSP nonce must be base64");
  const open = `<script nonce="${nonce}">`;
  let html = "";
  for (const chunk of chunks) {
    html += "<!--$-->";
    if (chunk)
      html += `${open}window.__remixContext.streamController.enqueue(${escapeScriptJson(JSON.stringify(chunk))});</script>`;
  }
  html += `<!--$-->${open}window.__remixContext.streamController.close();</script>`;
  return html + "<!--/$-->".repeat(chunks.length + 1);
}
