import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "~/server/http/csrf";

const h = (o: Record<string, string>) => new Headers(o);

describe("isCrossSiteRequest", () => {
  it("trusts Sec-Fetch-Site when present", () => {
    expect(isCrossSiteRequest(h({ "sec-fetch-site": "same-origin" }), "app.test")).toBe(false);
    expect(isCrossSiteRequest(h({ "sec-fetch-site": "same-origin", origin: "null" }), "app.test")).toBe(
      false,
    );
    expect(isCrossSiteRequest(h({ "sec-fetch-site": "none" }), "app.test")).toBe(false);
    expect(isCrossSiteRequest(h({ "sec-fetch-site": "cross-site" }), "app.test")).toBe(true);
    expect(isCrossSiteRequest(h({ "sec-fetch-site": "same-site" }), "app.test")).toBe(true);
  });
  it("refuses an Origin naming another host even beside Sec-Fetch-Site: same-origin", () => {
    const same = { "sec-fetch-site": "same-origin" };
    expect(isCrossSiteRequest(h({ ...same, origin: "https://app.test" }), "app.test")).toBe(false);
    expect(isCrossSiteRequest(h({ ...same, origin: "http://evil.test" }), "app.test")).toBe(true);
    expect(isCrossSiteRequest(h({ ...same, origin: "garbage" }), "app.test")).toBe(true);
    expect(isCrossSiteRequest(h({ "sec-fetch-site": "none", origin: "http://evil.test" }), "app.test")).toBe(
      true,
    );
  });
  it("falls back to Origin", () => {
    expect(isCrossSiteRequest(h({ origin: "https://app.test" }), "app.test")).toBe(false);
    expect(isCrossSiteRequest(h({ origin: "https://evil.test" }), "app.test")).toBe(true);
    expect(isCrossSiteRequest(h({ origin: "null" }), "app.test")).toBe(true);
    expect(isCrossSiteRequest(h({ origin: "garbage" }), "app.test")).toBe(true);
  });
  it("lets non-browser requests without either header through", () => {
    expect(isCrossSiteRequest(h({}), "app.test")).toBe(false);
  });
});
