import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { expect, loginAs, serverOf, test, USERS } from "./fixtures";

/**
 * Text browsers (w3m here; docs/text-browsers.md has the manual lynx and w3m sweep): pieces a styled page sets
 * apart by layout stay apart as text. The shell's sections are one entry a line, tab counts and tooltips do not
 * run into their labels, buttons and pager links do not run into the text beside them.
 */
const run = promisify(execFile);

// Asynchronously (the linter holds e2e to it): an install blocking the worker for longer than the servers' 5 s
// keep-alive left this worker's next request on a connection the api had closed ("other side closed").
test.beforeAll(async () => {
  const { stdout } = await run("bash", ["scripts/ensure-w3m.sh"], { timeout: 170_000 });
  if (stdout) process.stdout.write(stdout);
});

/** The page as w3m renders it, signed in with the page's session cookie. */
async function w3m(page: Page, path: string) {
  const cookies = await page.context().cookies();
  const header = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const url = new URL(path, `http://127.0.0.1:${serverOf(test.info()).web}`).toString();
  const { stdout } = await run(
    "w3m",
    ["-dump", "-cols", "200", "-o", "accept_cookie=0", "-header", `Cookie: ${header}`, url],
    { encoding: "utf8", timeout: 30_000 },
  );
  return stdout;
}

test("w3m: the shell, tabs, tooltips, lists and pagers read as separate pieces", async ({ page }) => {
  await loginAs(page, USERS.dana);

  const control = await w3m(page, "/locations/105/control");
  // The sections: one a line (a list), not "MenuSet up your accountThermostats…".
  for (const entry of ["Thermostats", "Bill History", "Manage account", "Help", "Sign Out"])
    expect(control, entry).toMatch(new RegExp(`^\\s*• ${entry}$`, "m"));
  expect(control).toMatch(/All devices \(\d+\) Devices with Issues \(\d+\)/);

  const accounts = await w3m(page, "/accounts");
  expect(accounts).toContain("Invalid Credentials — The credentials used were invalid.");

  const coned = await w3m(
    page,
    "/authorize-arcadia?step=enter_coned_credentials&utility=prov_coned&confirmed=on&account=29-4410-8801-0001-2",
  );
  expect(coned).toMatch(/29-4410-8801-0001-2 Remove/);

  const grid = await w3m(page, "/grid-services");
  expect(grid).toMatch(/Previous Page 1 of \d+ · \d+ events \(15 per page\) Next/);
  expect(grid).toMatch(/[a-z] Overridden thermostats/);
  expect(grid).not.toMatch(/[a-z]Overridden thermostats/);
});

test("w3m: a chart's axis labels read apart, not run together", async ({ page }) => {
  await loginAs(page, USERS.dana);
  const year = await w3m(page, "/locations/104/usage/consumption?period=year&start=2026-01-01");
  // The titles and each axis on a line of their own, the labels apart: "0 5,000 10,000", not "05,00010,000".
  expect(year).toMatch(/^Consumption \(kWh\) Temperature \(°F\)$/m);
  expect(year).toMatch(/^0 [\d,]+ [\d,]+ [\d,]+/m);
  expect(year).toMatch(/^Jan Feb Mar/m);
  expect(year).not.toMatch(/\d,\d{3}\d/);
  const month = await w3m(page, "/locations/104/usage/demand?period=month&start=2026-11-01");
  expect(month).toMatch(/^Nov 1 Nov \d+ Nov \d+/m);
  expect(month).not.toMatch(/Nov \d+Nov/);
});
