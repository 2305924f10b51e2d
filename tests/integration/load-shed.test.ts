import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLoadShedder } from "~/server/http/load-shed.server";

describe("createLoadShedder", () => {
  let server: http.Server;
  let url: string;
  let lag = 0;
  const release: (() => void)[] = [];
  const reasons: string[] = [];
  const shedder = createLoadShedder({
    maxInFlight: 3,
    maxEventLoopDelayMs: 100,
    retryAfterSeconds: 7,
    eventLoopDelayMs: () => lag,
    onShed: (reason) => reasons.push(reason),
  });
  beforeAll(async () => {
    server = http.createServer((req, res) =>
      shedder(req, res, () => {
        if (req.url === "/slow") release.push(() => res.end("slow"));
        else res.end("ok");
      }),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("answers 503 + Retry-After while the in-flight limit is reached, and serves again once below it", async () => {
    const slow = [1, 2, 3].map(() => fetch(`${url}/slow`));
    while (release.length < 3) await new Promise((r) => setTimeout(r, 5));
    expect(shedder.stats().inFlight).toBe(3);
    const shed = await fetch(`${url}/fast`);
    expect(shed.status).toBe(503);
    expect(shed.headers.get("retry-after")).toBe("7");
    expect(shed.headers.get("cache-control")).toBe("no-store");
    expect(reasons.splice(0)).toEqual(["in_flight"]);
    release.splice(0).forEach((r) => r());
    await Promise.all(slow);
    expect(shedder.stats().inFlight).toBe(0);
    expect((await fetch(`${url}/fast`)).status).toBe(200);
  });

  it("a request whose client goes away is no longer counted", async () => {
    const controller = new AbortController();
    const pending = fetch(`${url}/slow`, { signal: controller.signal }).catch(() => null);
    while (release.length < 1) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await pending;
    for (let i = 0; i < 100 && shedder.stats().inFlight > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(shedder.stats().inFlight).toBe(0);
    release.splice(0).forEach((r) => r());
  });

  it("sheds while the event loop lags beyond the threshold", async () => {
    lag = 150;
    expect((await fetch(`${url}/fast`)).status).toBe(503);
    expect(reasons.splice(0)).toEqual(["event_loop"]);
    lag = 20;
    expect((await fetch(`${url}/fast`)).status).toBe(200);
    expect(reasons).toEqual([]);
  });
});
