import { defineConfig } from "@playwright/test";
import { TEST_CLOCK_START } from "./tests/support/clock";
import { smtpUrl } from "./tests/support/smtp-account";
import { WEB_SERVER } from "./shared/build-output.mjs";

/**
 * Every flow runs twice: JavaScript on (`js`) and off (`nojs`). The browser makes the difference; the servers are
 * all alike. E2E_SERVERS servers (an even number, 2 by default) run side by side, each with its own seeded database and its own
 * real SMTP server, and each Playwright worker uses the one of its `parallelIndex` (fixtures.ts: `serverOf`), so
 * no two tests running at once share data. Each project runs E2E_SERVERS / 2 workers; within a file tests run in
 * order, and each test starts from freshly reset data (the `freshData` fixture, through the api's test hook
 * POST /dev/reset).
 *
 * Mail goes where it goes in production: each server's api delivers every email to its own SMTP server
 * (tests/support/mail-receiver.ts, ports `smtp` and `mail`) through SMTP_URL, and the tests read the messages it
 * received (fixtures.ts: `mailMark`, `waitForMail`), never the api's outbox (not served with SMTP_URL).
 */
const base = Number(process.env.E2E_PORT ?? 3200);
// Two by default: the suite is bound by the CPU of this 2-core machine. Four servers (and four browsers) took
// 15.2 min against 15.0 and 16.4 with two (headless shell, 2026-11-29), and a "pending state within 100 ms" test
// once took 227 ms with four.
export const SERVERS = 2 * Math.max(1, Math.round(Number(process.env.E2E_SERVERS ?? 2) / 2));
/** The ports of server `i` (a worker's `parallelIndex`): its web server, embedded api and mail server. */
export const serverPorts = (i: number) => ({
  web: base + 10 * i,
  api: base + 10 * i + 1,
  smtp: base + 10 * i + 2,
  mail: base + 10 * i + 3,
});
type Ports = ReturnType<typeof serverPorts>;
const ALL = Array.from({ length: SERVERS }, (_, i) => serverPorts(i));

// Debian's headless shell (scripts/ensure-chromium.sh), the browser Playwright runs headless by default: the
// same Blink as the full browser without its UI; a page costs about half the CPU of the full browser's new
// headless mode on this machine, and the suite is CPU-bound.
const launchOptions = {
  executablePath: process.env.CHROMIUM_SHELL_PATH ?? "/usr/bin/chromium-headless-shell",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

const serverEnv = (p: Ports) => ({
  PORT: String(p.web),
  API_PORT: String(p.api),
  HOST: "127.0.0.1",
  DATA_DIR: `.e2e-data/${p.web}`,
  NODE_ENV: "production",
  SESSION_SECRET: "e2e-session-secret-0123456789abcdef0123456789",
  LOG_LEVEL: "silent",
  QUIET_BANNER: "true",
  PUBLIC_URL: `http://127.0.0.1:${p.web}`,
  THERMOSTAT_ACTION_DELAY_MS: "2500",
  LOGIN_RATE_LIMIT_PER_ACCOUNT: "200",
  LOGIN_RATE_LIMIT_PER_ACCOUNT_IP: "200",
  LOGIN_OPTIONS_RATE_LIMIT_PER_IP: "100000",
  LOGIN_RATE_LIMIT_PER_IP: "5000",
  UPSTREAM_TIMEOUT_MS: "8000",
  // Test routes of the web (/test-hooks/error) and of the embedded api (POST /dev/reset, the freshData fixture).
  ENABLE_TEST_HOOKS: "true",
  // No notification scheduler: the tests run the jobs through POST /dev/notifications/run, at known moments.
  NOTIFICATION_INTERVAL_MS: "0",
  // Web and embedded api start their clock at one fixed instant: the suite does not depend on the hour.
  CLOCK_START: TEST_CLOCK_START,
  // Every email is delivered over SMTP to this project's mail receiver (the webServer entry before this one).
  SMTP_URL: smtpUrl(p.smtp),
  MAIL_FROM: "EnergyOps <alerts@energyops.test>",
});

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // One worker per server: a worker's parallelIndex names its server.
  workers: SERVERS,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: { trace: "on-first-retry", screenshot: "only-on-failure" },
  projects: [
    {
      name: "js",
      workers: SERVERS / 2,
      use: { javaScriptEnabled: true, launchOptions },
    },
    {
      name: "nojs",
      workers: SERVERS / 2,
      use: { javaScriptEnabled: false, launchOptions },
    },
  ],
  // Started in this order, each once its URL answers: a server's mail receiver, then its web server.
  webServer: ALL.flatMap((p) => [
    {
      command: `node --import tsx tests/support/mail-receiver.ts ${p.smtp} ${p.mail}`,
      url: `http://127.0.0.1:${p.mail}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `rm -rf .e2e-data/${p.web} && node ${WEB_SERVER}`,
      url: `http://127.0.0.1:${p.web}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: serverEnv(p),
    },
  ]),
});
