import { expect, test } from "./fixtures";

// Trust: a location's pages say which location they are about, in the heading and the <title>.
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

// Trust: a redirect says why on arrival, once (a flash read and cleared; no GET changes server state).
test.describe("redirects say why", () => {
  test("a location the user cannot see: back to Locations with a toast", async ({ asDana: page }) => {
    // 201 is another client's location; 999999 does not exist.
    for (const id of [201, 999999]) {
      const res = await page.goto(`/locations/${id}/control`);
      await expect(page).toHaveURL(/\/locations$/);
      expect(res?.headers()["cache-control"]).toMatch(/private/);
      expect(res?.headers()["cache-control"]).toMatch(/no-store/);
      await expect(page.getByTestId("toast")).toHaveText(/That location isn't available to your account/);
      await page.reload();
      await expect(page.getByRole("heading", { name: "Locations", level: 1 })).toBeVisible();
      await expect(page.getByTestId("toast")).toHaveCount(0);
    }
  });

  test("every path of a location the user cannot see says why: pages, redirects and CSV downloads", async ({
    asDana: page,
  }) => {
    // An emailed link to a location gone from the account (99999), or to an address that is no id at all.
    const paths = ["", "/control", "/spending", "/usage", "/usage/demand", "/usage/consumption"];
    const csv = ["/spending/csv", "/usage/demand/csv?period=month&start=2026-10-01"];
    for (const id of ["99999", "abc", "0"]) {
      for (const path of [...paths, ...csv]) {
        await page.goto(`/locations/${id}${path}`);
        await expect(page, `/locations/${id}${path}`).toHaveURL(/\/locations$/);
        await expect(page.getByTestId("toast"), `/locations/${id}${path}`).toHaveText(
          /That location isn't available to your account/,
        );
      }
    }
    // Shown once: the next page has no toast.
    await page.goto("/locations");
    await expect(page.getByRole("heading", { name: "Locations", level: 1 })).toBeVisible();
    await expect(page.getByTestId("toast")).toHaveCount(0);
  });

  test("an unknown path: to the start page with a toast", async ({ asDana: page }) => {
    await page.goto("/no-such-page/at-all");
    await expect(page).toHaveURL(/\/locations$/);
    await expect(page.getByTestId("toast")).toHaveText(/That page doesn't exist/);
    await page.goto("/locations");
    await expect(page.getByTestId("toast")).toHaveCount(0);
    // A usage type that is neither demand nor consumption is an unknown path too, and its CSV.
    for (const path of ["/locations/101/usage/foo", "/locations/101/usage/foo/csv?period=month"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/locations$/);
      await expect(page.getByTestId("toast")).toHaveText(/That page doesn't exist/);
    }
  });
});

// An unknown path under /api/ (the download namespace) stays a 404 (rule api-unknown-404): a browser is told so
// and offered the start page; the status stays for scripts, monitors and downloads.
test("an unknown /api/ path: 404, saying so, with a link to the start page", async ({ asDana: page }) => {
  const res = await page.goto("/api/no-such-download");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "That page doesn't exist", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Go to the start page" }).click();
  await expect(page).toHaveURL(/\/locations$/);
  const plain = await page.request.get("/api/no-such-download", { headers: { accept: "*/*" } });
  expect(plain.status()).toBe(404);
  expect(await plain.text()).toBe("Not Found");
});
