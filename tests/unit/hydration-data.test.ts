import { createRequire } from "node:module";
import { Writable } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import { createElement, Suspense } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { escapeScriptJson, handoffScripts, takeHydrationData } from "~/server/http/hydration-data.server";

/**
 * entry.server renders a page with renderToString once its hydration data has been read, and writes the scripts
 * Remix's StreamTransfer would have streamed after the document. These must be the very same bytes: the
 * browser's entry (Remix's RemixBrowser) reads them back into the router.
 */
const require = createRequire(import.meta.url);
const { StreamTransfer } = require("@remix-run/react/dist/single-fetch.js") as {
  StreamTransfer: (props: Record<string, unknown>) => JSX.Element | null;
};

const encoder = new TextEncoder();
function streamOf(pieces: Uint8Array[]) {
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const p of pieces) {
        await Promise.resolve();
        controller.enqueue(p);
      }
      controller.close();
    },
  });
}
const contextWith = (pieces: Uint8Array[], didRenderScripts = true) =>
  ({ serverHandoffStream: streamOf(pieces), renderMeta: { didRenderScripts } }) as unknown as EntryContext;

/** What StreamTransfer writes for these pieces, as RemixServer renders it (in a Suspense boundary). */
function streamTransferHtml(pieces: Uint8Array[], nonce: string, didRenderScripts = true) {
  const context = contextWith(pieces, didRenderScripts);
  return new Promise<string>((resolve, reject) => {
    let html = "";
    const sink = new Writable({
      write(chunk: Buffer, _e, done) {
        html += chunk.toString();
        done();
      },
      final(done) {
        resolve(html);
        done();
      },
    });
    const { pipe } = renderToPipeableStream(
      createElement(
        Suspense,
        null,
        createElement(StreamTransfer, {
          context,
          identifier: 0,
          reader: context.serverHandoffStream!.getReader(),
          textDecoder: new TextDecoder(),
          nonce,
        }),
      ),
      { onAllReady: () => pipe(sink), onShellError: reject },
    );
  });
}

async function ours(pieces: Uint8Array[], nonce: string, didRenderScripts = true) {
  const context = contextWith(pieces, didRenderScripts);
  const chunks = await takeHydrationData(context);
  expect(context.serverHandoffStream, "the stream is taken off the context").toBeUndefined();
  return handoffScripts(chunks!, context, nonce);
}

describe("the hydration data as scripts after the document", () => {
  const nonce = "0AkvgzQRLhx9Ez7j7kSbnQ==";
  const cases: [string, Uint8Array[]][] = [
    ["one chunk (every page today)", [encoder.encode('[{"_1":2},"loaderData",{"a":"</script><b>&"}]\n')]],
    ["several chunks (deferred data)", [encoder.encode('[{"_1":2}]\n'), encoder.encode("P1:[3]\n")]],
    ["no chunk", []],
    ["line separators and non-ASCII", [encoder.encode('["\u2028\u2029 é ✓ 🙂"]\n')]],
    // StreamTransfer decodes with { stream: true }: a character split between two chunks lands in the second.
    [
      "a character split across chunks",
      (() => {
        const bytes = encoder.encode('["🙂"]\n');
        return [bytes.subarray(0, 4), bytes.subarray(4)];
      })(),
    ],
  ];
  for (const [name, pieces] of cases)
    it(`are the bytes StreamTransfer writes: ${name}`, async () => {
      const expected = await streamTransferHtml(pieces, nonce);
      expect(expected).toContain("streamController.close()");
      expect(await ours(pieces, nonce)).toBe(expected);
    });

  it("are left out when the page rendered no <Scripts> (the email deep-link pages)", async () => {
    const pieces = [encoder.encode("[1]\n")];
    expect(await streamTransferHtml(pieces, nonce, false)).toBe("<!--$--><!--/$-->");
    expect(await ours(pieces, nonce, false)).toBe("");
  });

  it("escape what could end the script, as Remix's escapeHtml does", () => {
    expect(escapeScriptJson('"</script>&\u2028\u2029"')).toBe('"\\u003c/script\\u003e\\u0026\\u2028\\u2029"');
  });

  it("refuse a nonce that would need escaping in an attribute", async () => {
    const context = contextWith([]);
    expect(() => handoffScripts([], context, 'x" onload="alert(1)')).toThrow(/nonce/);
  });
});
