import { expect, test } from "./fixtures";

// Issue 15, trust: a location's pages say which location they are about, in the heading and the <title>.
test.describe("location pages name their location", () => {
  const pages = [
    { path: "control", page: "Thermostats" },
    { path: "spending", page: "Bill History" },
    { path: "usage/demand", page: "Usage Details" },
  ];
  for (const { path, page: name } of pages) {
    test(`${name}: title and heading carry the location's name`, async ({ asDana: page }) => {
      await page.goto(`/locations/101/${path}`);
      await expect(page).toHaveTitle(new RegExp(`^(.* · )?${name} · Harbor Coffee Pike Place · EnergyOps$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${name} · Harbor Coffee Pike Place`);
      await page.goto(`/locations/102/${path}`);
      await expect(page).toHaveTitle(new RegExp(`${name} · Harbor Coffee Capitol Hill · EnergyOps$`));
    });
  }
});
