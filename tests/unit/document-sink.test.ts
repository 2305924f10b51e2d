import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DocumentSink } from "~/server/document-body.server";

const turn = () => new Promise((r) => setImmediate(r));
let server: http.Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** An HTTP server whose one answer is what `write` puts into a DocumentSink; the raw answer as the client saw it. */
async function answer(write: (sink: DocumentSink) => Promise<void>) {
  server = http.createServer((_req, res) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    void write(new DocumentSink(res));
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return {
    length: res.headers.get("content-length"),
    chunked: res.headers.get("transfer-encoding") === "chunked",
    body: await res.text(),
  };
}

describe("DocumentSink (a document's HTML into the HTTP response)", () => {
  it("sends a page written and ended in one turn in one piece, with its Content-Length", async () => {
    const pieces = ["<!DOCTYPE html>", "<html><body>", "é".repeat(3000), "</body></html>"];
    const got = await answer(async (sink) => {
      for (const p of pieces) sink.write(Buffer.from(p));
      sink.end();
    });
    expect(got.body).toBe(pieces.join(""));
    expect(got.length).toBe(String(Buffer.byteLength(pieces.join(""))));
    expect(got.chunked).toBe(false);
  });

  it("streams what comes over several turns, each turn's pieces together, in order", async () => {
    const writes: string[] = [];
    const got = await answer(async (sink) => {
      const res = (sink as unknown as { res: http.ServerResponse }).res;
      const write = res.write.bind(res);
      res.write = ((chunk: Buffer) => (writes.push(chunk.toString()), write(chunk))) as typeof res.write;
      sink.write(Buffer.from("<html>"));
      sink.write(Buffer.from("<body>shell"));
      await turn();
      await turn();
      sink.write(Buffer.from("data-1"));
      sink.write(Buffer.from("data-2"));
      await turn();
      await turn();
      sink.end(Buffer.from("</body></html>"));
    });
    expect(got.body).toBe("<html><body>shelldata-1data-2</body></html>");
    expect(got.chunked).toBe(true);
    expect(got.length).toBeNull();
    expect(writes).toEqual(["<html><body>shell", "data-1data-2"]);
  });

  it("takes React's second end(), after it has finished, without building an error", async () => {
    let second: (() => void) | undefined;
    await answer(async (sink) => {
      sink.end(Buffer.from("page"));
      await new Promise((r) => sink.on("finish", r));
      second = () => sink.end();
    });
    // Node's own end() would build (and drop) an ERR_STREAM_ALREADY_FINISHED: it is not reached.
    const nodeEnd = vi.spyOn(Writable.prototype, "end");
    second!();
    expect(nodeEnd).not.toHaveBeenCalled();
    nodeEnd.mockRestore();
  });
});
