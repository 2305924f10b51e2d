import Database from "better-sqlite3";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { expect, isJs, ready, serverOf, test } from "./fixtures";

/**
 * A double submit of a thermostat setting sends one vendor command (ADR 0010): with JavaScript, two clicks on
 * Save before the page re-renders; without, the browser's post and then the same form body posted again
 * (a resubmit). Counted in this project's api database, reset to the seed before the test (freshData).
 */
const THERMOSTAT = 1031;
const CONTROL = "/locations/114/control";

function readDb<T>(info: TestInfo, read: (db: Database.Database) => T): T {
  const port = serverOf(info).web;
  const db = new Database(path.resolve(`.e2e-data/${port}/api.sqlite`), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** The newest vendor command's id (by id, not time: the test servers' clock is not this process's). */
const lastCommandId = (info: TestInfo) =>
  readDb(
    info,
    (db) =>
      (db.prepare("SELECT coalesce(max(id), 0) AS id FROM thermostat_actions").get() as { id: number }).id,
  );

/** Vendor commands for the thermostat created after the `since` id. */
const commandsSince = (info: TestInfo, since: number) =>
  readDb(
    info,
    (db) =>
      (
        db
          .prepare("SELECT COUNT(*) AS n FROM thermostat_actions WHERE thermostat_id = ? AND id > ?")
          .get(THERMOSTAT, since) as { n: number }
      ).n,
  );

async function openForm(page: Page, info: TestInfo) {
  await page.goto(CONTROL);
  await ready(page, info);
  const card = page.getByTestId(`thermostat-${THERMOSTAT}`);
  const details = card.locator("details.thermo-settings");
  if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
  return details;
}

test.describe("double submit of a thermostat setting", () => {
  test("sends one vendor command and shows one submitted change", async ({ asDana: page }, info) => {
    const form = await openForm(page, info);
    const cool = form.getByLabel("Cool setpoint (°F)");
    const current = Number(await cool.inputValue());
    const next = current >= 85 ? current - 1 : current + 1;
    await cool.fill(String(next));
    // Read without waiting: absent before the fix, where this test then fails on the command count.
    const idField = form.locator('input[name="submissionId"]');
    const id = (await idField.count()) ? await idField.inputValue() : "";
    const since = lastCommandId(info);

    if (isJs(info)) {
      const save = form.getByRole("button", { name: "Save" });
      await expect(save).toBeEnabled();
      // Two clicks in one task: the second lands before React disables the button (a fast double click).
      await save.evaluate((b: HTMLButtonElement) => {
        b.click();
        b.click();
      });
      await expect(
        page.getByTestId("toast").filter({ hasText: "Thermostat update submitted" }),
      ).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`watch=${THERMOSTAT}%3A\\d+|watch=${THERMOSTAT}:\\d+`));
    } else {
      const body = {
        thermostatId: String(THERMOSTAT),
        tab: await form.locator('input[name="tab"]').inputValue(),
        submissionId: id,
        mode: await form.getByLabel("Mode").inputValue(),
        coolSetpointF: String(next),
        heatSetpointF: await form.getByLabel("Heat setpoint (°F)").inputValue(),
        intent: "save",
      };
      await form.getByRole("button", { name: "Save" }).click();
      await expect(
        page.getByTestId("toast").filter({ hasText: "Thermostat update submitted" }),
      ).toBeVisible();
      const first = new URL(page.url());
      // The browser resubmits the same form body twice (same cookies, same submission id).
      for (let i = 0; i < 2; i++) {
        const again = await page.request.post(CONTROL, { form: body, maxRedirects: 0 });
        expect(again.status()).toBe(302);
        expect(again.headers()["location"]).toBe(`${first.pathname}${first.search}${first.hash}`);
      }
    }
    await expect.poll(() => commandsSince(info, since), { timeout: 5_000 }).toBe(1);
    // Still one a moment later (a late duplicate would have landed by now).
    await page.waitForTimeout(500);
    expect(commandsSince(info, since)).toBe(1);

    // The form carried a server-rendered id, and the next render of the form has a new one.
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const again = await openForm(page, info);
    await expect(again.locator('input[name="submissionId"]')).not.toHaveValue(id);
  });
});
