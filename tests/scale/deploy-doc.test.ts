import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { DEPLOY_EXAMPLE, nginxConfig } from "./nginx";

/** docs/deploy.md shows the nginx configuration the scale suite runs, with a deployment's addresses. */
describe("docs/deploy.md", () => {
  it("its nginx example is the scale suite's configuration", () => {
    const doc = fs.readFileSync("docs/deploy.md", "utf8");
    const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBe(nginxConfig(DEPLOY_EXAMPLE));
  });

  it("names every environment variable the probes and shutdown read", () => {
    const doc = fs.readFileSync("docs/deploy.md", "utf8");
    for (const name of [
      "SESSION_SECRET",
      "API_URL",
      "REDIS_URL",
      "TRUST_PROXY",
      "SHUTDOWN_TIMEOUT_MS",
      "SHUTDOWN_DRAIN_MS",
      "SHUTDOWN_DRAIN_QUIET_MS",
    ])
      expect(doc).toContain(`\`${name}\``);
    for (const path of ["/healthz", "/readyz"]) expect(doc).toContain(path);
  });
});
