import { afterAll, beforeAll, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";

let api: RunningApi;
const lines: { msg: string; data?: Record<string, unknown> }[] = [];

beforeAll(async () => {
  api = await startApi({
    port: 0,
    clockStart: TEST_CLOCK_START,
    dbFile: ":memory:",
    webBaseUrl: "http://web.test",
    log: (msg, data) => lines.push({ msg, data }),
  });
});
afterAll(() => api?.close());

it("the reference api logs one line per request: the caller's X-Request-Id, the route pattern, no values", async () => {
  const res = await fetch(
    `${api.url}/users/${encodeURIComponent("dana@harborcoffee.test")}/login-options?x=q-value`,
    {
      headers: { "x-request-id": "web-req-12345678" },
    },
  );
  await res.text();
  expect(res.status).toBe(200);
  const line = lines.find((l) => l.msg === "request" && l.data?.request_id === "web-req-12345678");
  expect(line?.data).toMatchObject({ method: "GET", route: "/users/:email/login-options", status: 200 });
  expect(typeof line?.data?.ms).toBe("number");
  const logged = JSON.stringify(lines);
  expect(logged).not.toContain("q-value");
  expect(logged).not.toContain("harborcoffee");
});

it("a request refused before any route matched (401) is logged with route null", async () => {
  const res = await fetch(`${api.url}/buildings`, { headers: { "x-request-id": "web-req-unauth-1" } });
  await res.text();
  const line = lines.find((l) => l.data?.request_id === "web-req-unauth-1");
  expect(line?.data).toMatchObject({ method: "GET", route: null, status: 401 });
});
