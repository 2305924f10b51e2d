import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimit } from "~/server/http/body-limit.server";

// The same limits as the pure checks of tests/unit/body-limit.test.ts, here through a real HTTP server.
const limits = { maxBytes: 1024, maxFields: 5, maxFieldNameLength: 10, maxFieldIndex: 999, maxFieldDepth: 8 };

describe("bodyLimit middleware", () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    const limit = bodyLimit(limits);
    server = http.createServer((req, res) =>
      limit(req, res, () => {
        res.end(`read ${(req as typeof req & { rawBody?: Buffer }).rawBody?.length ?? "none"}`);
      }),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("hands a body within the limit on as rawBody; GET passes untouched", async () => {
    expect(
      await (
        await fetch(url, {
          method: "POST",
          body: "a=1&b=2",
          headers: { "content-type": "application/x-www-form-urlencoded" },
        })
      ).text(),
    ).toBe("read 7");
    expect(await (await fetch(url)).text()).toBe("read none");
  });

  it("refuses a body over the limit, declared or streamed, with 413 and Connection: close", async () => {
    const declared = await fetch(url, { method: "POST", body: "x".repeat(1025) });
    expect(declared.status).toBe(413);
    expect(declared.headers.get("connection")).toBe("close");
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(new TextEncoder().encode("y".repeat(300)));
        c.close();
      },
    });
    const chunked = await fetch(url, { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it("refuses too many fields with 413", async () => {
    const res = await fetch(url, {
      method: "POST",
      body: "a&b&c&d&e&f",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(413);
  });
});
