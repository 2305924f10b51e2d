import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "~/server/config.server";

describe("METRICS_PORT and METRICS_HOST", () => {
  it("metrics are off unless METRICS_PORT is set; the listener binds loopback by default", () => {
    const off = parseConfig({});
    expect(off.METRICS_PORT).toBeUndefined();
    expect(off.METRICS_HOST).toBe("127.0.0.1");
    const on = parseConfig({ METRICS_PORT: "9464", METRICS_HOST: "10.0.0.5" });
    expect(on.METRICS_PORT).toBe(9464);
    expect(on.METRICS_HOST).toBe("10.0.0.5");
  });

  it.each(["0", "70000", "metrics"])("refuses METRICS_PORT=%s", (value) => {
    expect(() => parseConfig({ METRICS_PORT: value })).toThrow(/METRICS_PORT/);
  });

  it("refuses the main port: metrics are never served there", () => {
    expect(() => parseConfig({ PORT: "3000", METRICS_PORT: "3000" })).toThrow(ConfigError);
    expect(() => parseConfig({ METRICS_PORT: "3000" })).toThrow(/METRICS_PORT: must differ from PORT/);
  });
});
