import { Duplex } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { CoalesceChunks } from "~/server/coalesce.server";

const turn = () => new Promise((r) => setImmediate(r));

function collect(stream: CoalesceChunks) {
  const chunks: string[] = [];
  stream.on("data", (c: Buffer) => chunks.push(c.toString()));
  return chunks;
}

describe("CoalesceChunks (the HTML stream's writes)", () => {
  it("joins the pieces written in one turn into one chunk, in order", async () => {
    const s = new CoalesceChunks();
    const chunks = collect(s);
    for (const piece of ["<html>", "<body>", "x".repeat(2048), "</body>"]) s.write(piece);
    await turn();
    await turn();
    expect(chunks).toEqual([`<html><body>${"x".repeat(2048)}</body>`]);
  });

  it("keeps pieces of different turns apart and passes the last ones on at the end", async () => {
    const s = new CoalesceChunks();
    const chunks = collect(s);
    const ended = new Promise((r) => s.on("end", r));
    s.write("shell");
    await turn();
    await turn();
    s.write("data-1");
    s.write("data-2");
    s.end("</html>");
    await ended;
    expect(chunks).toEqual(["shell", "data-1data-2</html>"]);
  });

  it("takes React's second end(), after it has finished, without building an error", async () => {
    const s = new CoalesceChunks();
    collect(s);
    const finished = new Promise((r) => s.on("finish", r));
    s.end("page");
    await finished;
    // Node's own end() would build (and drop) an ERR_STREAM_ALREADY_FINISHED: it is not reached.
    const nodeEnd = vi.spyOn(Duplex.prototype, "end");
    s.end();
    expect(nodeEnd).not.toHaveBeenCalled();
    nodeEnd.mockRestore();
  });
});
