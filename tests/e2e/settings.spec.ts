import type { Page, TestInfo } from "@playwright/test";
import {
  expect,
  expectJsState,
  expectNoSeriousA11yViolations,
  loginAs,
  ready,
  test,
  USERS,
  signInWithCode,
} from "./fixtures";

/** Sets the editor's checkboxes to exactly `names` and saves; returns how many locations changed. */
async function setAccess(page: Page, info: TestInfo, member: string, names: string[]) {
  await page.getByRole("link", { name: `Edit access for ${member}` }).click();
  const editor = page.getByTestId("access-editor");
  await expect(editor).toBeVisible();
  await ready(page, info);
  const boxes = editor.getByRole("checkbox");
  const before = new Map<string, boolean>();
  for (const box of await boxes.all())
    before.set((await box.locator("xpath=..").innerText()).trim(), await box.isChecked());
  await editor.getByRole("button", { name: "Select all" }).click();
  await expect(editor.getByText(`${before.size} of ${before.size} selected`)).toBeVisible();
  await editor.getByRole("button", { name: "Revoke all" }).click();
  await expect(editor.getByText(`0 of ${before.size} selected`)).toBeVisible();
  for (const n of names) await editor.getByLabel(n, { exact: true }).check();
  const changed = [...before].filter(([name, had]) => had !== names.includes(name)).length;
  await expectNoSeriousA11yViolations(page);
  await editor.getByRole("button", { name: "Save" }).click();
  return changed;
}

test.describe("manage account", () => {
  test("a preference toggle is saved and survives a reload", async ({ page, a11y }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/settings");
    await expectJsState(page, info);
    await expect(page.getByRole("tab", { name: "My Preferences" })).toBeVisible();
    await expect(page.getByRole("tab", { name: "Team" })).toBeVisible();
    for (const label of ["Bill Audit Alerts", "Weekly Rundown", "Monthly Recap", "Customer Comfort Alerts"]) {
      await expect(page.getByRole("switch", { name: label })).toBeVisible();
    }
    await a11y();
    await ready(page, info);
    const recap = page.getByRole("switch", { name: "Monthly Recap" });
    const before = false; // Dana's Monthly Recap is off in the reset data
    await expect(recap).toHaveAttribute("aria-checked", String(before));
    await recap.click();
    await expect(page.getByTestId("toast")).toContainText("Preferences saved");
    await expect(recap).toHaveAttribute("aria-checked", String(!before));
    await page.reload();
    await expect(page.getByRole("switch", { name: "Monthly Recap" })).toHaveAttribute(
      "aria-checked",
      String(!before),
    );
    await ready(page, info);
    await page.getByRole("switch", { name: "Monthly Recap" }).click();
    await expect(page.getByRole("switch", { name: "Monthly Recap" })).toHaveAttribute(
      "aria-checked",
      String(before),
    );
  });

  test("team: search, sort, and location access saved with one call per changed location", async ({
    page,
    a11y,
  }, info) => {
    // Two saves of the access editor, each with an axe check: 23 s alone, past 45 s beside the other project.
    test.slow();
    await loginAs(page, USERS.dana);
    await page.goto("/settings");
    await ready(page, info);
    await page.getByRole("tab", { name: "Team" }).click();
    await expect(page).toHaveURL(/tab=team/);
    const table = page.getByTestId("team-table");
    await expect(table.getByRole("row", { name: /Sam Okafor/ })).toContainText(
      "Harbor Coffee Capitol…, Harbor Coffee Chelsea, 5 selected",
    );
    await a11y();

    await page.getByLabel("Search by name or email").fill("priya");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(table.getByRole("row")).toHaveCount(2);
    await page.goto("/settings?tab=team&sort=email&dir=desc");
    await expect(table.getByRole("row").nth(1)).toContainText("tomas@harborcoffee.test");

    const target = ["Harbor Coffee Back Bay", "Harbor Coffee Hoboken"];
    // Priya's three seeded locations go, two others come: five changed locations.
    const changed = await setAccess(page, info, "Priya Shah", target);
    expect(changed).toBe(5);
    await expect(page.getByTestId("toast")).toContainText(
      "Location access saved for Priya Shah (5 locations changed).",
    );
    await expect(table.getByRole("row", { name: /Priya Shah/ })).toContainText(
      "Harbor Coffee Back Bay, Harbor Coffee Hoboken",
    );

    // Back to the seeded access: a second save, five changes again.
    const restored = await setAccess(page, info, "Priya Shah", [
      "Harbor Coffee Ballard",
      "Harbor Coffee South Congress",
      "Harbor Coffee Park Slope",
    ]);
    expect(restored).toBe(5);
    await expect(page.getByTestId("toast")).toContainText("(5 locations changed)");
    await expect(table.getByRole("row", { name: /Priya Shah/ })).toContainText(
      "Harbor Coffee Ballard, Harbor Coffee Park Slo…, 3 selected",
    );
  });

  test("a regular user sees only preferences and is refused the Team tab", async ({ page }, info) => {
    await signInWithCode(page, info, USERS.sam, "/settings");
    await expect(page.getByRole("tab", { name: "My Preferences" })).toBeVisible();
    await expect(page.getByRole("tab", { name: "Team" })).toHaveCount(0);
    const res = await page.goto("/settings?tab=team");
    expect(res?.status()).toBe(403);
    await expect(page.getByText("Forbidden")).toBeVisible();
    await expect(page.getByTestId("team-table")).toHaveCount(0);
  });
});
