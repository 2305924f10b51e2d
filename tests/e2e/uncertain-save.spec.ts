import Database from "better-sqlite3";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { MESSAGES } from "../../app/features/thermostats/messages";
import { apiUrl, expect, isJs, ready, serverOf, test } from "./fixtures";

/**
 * A thermostat change whose answer is lost (ADR 0010): the api commits it, then drops the connection
 * (its test-hook fault point, api/lib/fault-points.ts). The card says the spec's error and that the change may
 * have gone through, and where to look; the same Save again is answered with the change that was made, never a
 * second vendor command (the submission id travels as Idempotency-Key). Counted in this project's api database.
 */
const THERMOSTAT = 1031;
const CONTROL = "/locations/114/control";

function commands(info: TestInfo) {
  const port = serverOf(info).web;
  const db = new Database(path.resolve(`.e2e-data/${port}/api.sqlite`), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    return (
      db.prepare("SELECT id FROM thermostat_actions WHERE thermostat_id = ? ORDER BY id").all(THERMOSTAT) as {
        id: number;
      }[]
    ).map((a) => a.id);
  } finally {
    db.close();
  }
}

async function openForm(page: Page, info: TestInfo) {
  await page.goto(CONTROL);
  await ready(page, info);
  const card = page.getByTestId(`thermostat-${THERMOSTAT}`);
  const details = card.locator("details.thermo-settings");
  if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
  return { card, form: details };
}

test("a change whose answer was lost says it may have gone through; Save again sends it once", async ({
  asDana: page,
}, info) => {
  const { card, form } = await openForm(page, info);
  const cool = form.getByLabel("Cool setpoint (°F)");
  const current = Number(await cool.inputValue());
  const next = current >= 85 ? current - 1 : current + 1;
  await cool.fill(String(next));
  const id = await form.locator('input[name="submissionId"]').inputValue();
  const before = commands(info);
  const armed = await page.request.post(`${apiUrl(info)}/dev/faults/after-commit`, {
    data: { method: "POST", path: `^/thermostats/${THERMOSTAT}/settings$`, mode: "drop" },
  });
  expect(armed.status()).toBe(200);

  await form.getByRole("button", { name: "Save" }).click();
  const alert = card.getByRole("alert").filter({ hasText: MESSAGES.updateFailed });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(MESSAGES.maybeApplied);
  // The api did make it.
  const made = commands(info).filter((c) => !before.includes(c));
  expect(made).toHaveLength(1);
  // The form keeps the submission id and the values sent: the same Save is the same submission.
  const retry = card.locator('form input[name="submissionId"]');
  await expect(retry).toHaveValue(id);
  await expect(card.getByLabel("Cool setpoint (°F)")).toHaveValue(String(next));

  await card.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: MESSAGES.submitted })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`watch=${THERMOSTAT}(%3A|:)${made[0]}`));
  expect(commands(info).filter((c) => !before.includes(c))).toEqual(made);
  if (!isJs(info)) expect(new URL(page.url()).hash).toBe(`#thermostat-${THERMOSTAT}`);
});
