import { afterAll, beforeAll, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";

let api: RunningApi;
const lines: { msg: string; data?: Record<string, unknown> }[] = [];

beforeAll(async () => {
  api = await startApi({
    port: 0,
    dbFile: ":memory:",
    webBaseUrl: "http://web.test",
    log: (msg, data) => lines.push({ msg, data }),
  });
});
afterAll(() => api?.close());

it("the reference api logs one line per request with the caller's X-Request-Id, without the query", async () => {
  const res = await fetch(`${api.url}/buildings?page=2&secret=q-value`, {
    headers: { "x-request-id": "web-req-12345678" },
  });
  await res.text();
  const line = lines.find((l) => l.msg === "request" && l.data?.request_id === "web-req-12345678");
  expect(line?.data).toMatchObject({ method: "GET", path: "/api/buildings", status: res.status });
  expect(typeof line?.data?.ms).toBe("number");
  expect(JSON.stringify(lines)).not.toContain("q-value");
});
