import { describe, expect, it } from "vitest";
import { parseConfig } from "~/server/config.server";

const SECRET = { SESSION_SECRET: "x".repeat(32) };

describe("SERVER_TIMING", () => {
  it("is off in production unless SERVER_TIMING=true, on elsewhere unless turned off", () => {
    expect(parseConfig({ ...SECRET, NODE_ENV: "production" }).SERVER_TIMING).toBe(false);
    expect(parseConfig({ ...SECRET, NODE_ENV: "production", SERVER_TIMING: "true" }).SERVER_TIMING).toBe(
      true,
    );
    expect(parseConfig({ ...SECRET, NODE_ENV: "development" }).SERVER_TIMING).toBe(true);
    expect(parseConfig({ ...SECRET, NODE_ENV: "development", SERVER_TIMING: "false" }).SERVER_TIMING).toBe(
      false,
    );
  });
});
