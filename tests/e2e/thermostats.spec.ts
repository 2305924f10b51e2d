import type { Locator, Page, TestInfo } from "@playwright/test";
import { apiUrl, expect, expectJsState, isJs, loginAs, PASSWORD, ready, test, USERS } from "./fixtures";
import { expectNoAppScripts, openEmailPage } from "./email-pages";

/**
 * The thermostat control room and the dismissal email link, in both projects. Tests that change data use a
 * different thermostat per project (each project has its own database) and accept a state a first attempt left.
 */
const pick = (info: TestInfo, js: number, nojs: number) => (isJs(info) ? js : nojs);

async function open(page: Page, info: TestInfo, path: string) {
  await page.goto(path);
  await ready(page, info);
}

const toast = (page: Page, text: string | RegExp) => page.getByTestId("toast").filter({ hasText: text });

async function openSettings(card: Locator) {
  const details = card.locator("details.thermo-settings");
  if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
  return details;
}

/** Holds back the live settings form's chunk (Conform and zod) until the returned function is called. */
async function holdLiveFormChunk(page: Page) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/live-settings-form-*.js", async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test.describe("thermostat control room", () => {
  test.beforeEach(async ({ page }) => {
    await loginAs(page, USERS.dana);
  });

  test("tabs with counts: All devices and Devices with Issues", async ({ page, a11y }, info) => {
    await open(page, info, "/locations/103/control");
    await expectJsState(page, info);
    await expect(page.getByRole("heading", { name: "Thermostats", level: 1 })).toBeVisible();
    const tabs = page.getByRole("tablist", { name: "Thermostats" });
    await expect(tabs.getByRole("tab", { name: /All devices/ })).toContainText("3");
    await expect(tabs.getByRole("tab", { name: /Devices with Issues/ })).toContainText("1");
    await expect(page.getByRole("article")).toHaveCount(3);
    await tabs.getByRole("tab", { name: /Devices with Issues/ }).click();
    await expect(page).toHaveURL(/tab=issues/);
    await expect(page.getByRole("article")).toHaveCount(1);
    const card = page.getByRole("article", { name: "Espresso Bar" });
    await expect(card.getByTestId("card-status")).toHaveText("unreachable");
    await expect(card).toContainText(/Last seen: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M ET/);
    await tabs.getByRole("tab", { name: /All devices/ }).click();
    await expect(page.getByRole("article")).toHaveCount(3);
    await a11y();
  });

  test("every card status appears with its brand and mode names", async ({ page }, info) => {
    const expected: [number, string, string][] = [
      [101, "Front Counter", "event in progress"],
      [101, "Storage Room", "unlinked device"],
      [109, "Main Room", "schedule unavailable"],
      [108, "Cafe Floor", "resolving issue"],
      [108, "Pastry Kitchen", "issue dismissed"],
      [106, "Downstairs", "inactive schedule"],
      [110, "Counter", "inefficient schedule"],
      [113, "Lobby", "system performance"],
      [110, "Reading Nook", "following schedule"],
    ];
    for (const [building, name, status] of expected) {
      if (page.url().indexOf(`/locations/${building}/`) === -1)
        await open(page, info, `/locations/${building}/control`);
      await expect(page.getByRole("article", { name }).getByTestId("card-status"), name).toHaveText(status);
    }
    // Airzone: the manufacturer text as brand; the window-bar card auto-resolves (yellow border).
    await open(page, info, "/locations/106/control");
    const downstairs = page.getByRole("article", { name: "Downstairs" });
    await expect(downstairs).toContainText("Daikin");
    // Mode display names: ventilation is "fan", dehumidifier is "dry".
    await expect(downstairs.getByLabel("Mode").locator("option")).toHaveText([
      "cool",
      "heat",
      "off",
      "fan",
      "dry",
    ]);
    await open(page, info, "/locations/109/control");
    await expect(page.getByRole("article", { name: "Window Bar" })).toHaveAttribute("data-border", "yellow");
  });

  test("the card back explains the status, by keyboard and without JavaScript", async ({
    page,
    a11y,
  }, info) => {
    await open(page, info, "/locations/113/control");
    const lobby = page.getByRole("article", { name: "Lobby" });
    await expect(lobby.getByTestId("card-back")).toBeHidden();
    await lobby.locator("details.thermo-back > summary").focus();
    await page.keyboard.press("Enter");
    const back = lobby.getByTestId("card-back");
    await expect(back).toBeVisible();
    await expect(back).toContainText("not performing as expected");
    await expect(back.getByRole("button", { name: "DISMISS" })).toBeVisible();
    await expect(back.getByRole("button", { name: "Resolve Issue" })).toHaveCount(0);
    await expect(back.getByTestId("vendor-detail")).toHaveCount(0);

    // Airzone devices never offer Resolve or DISMISS; a processing issue offers neither.
    await open(page, info, "/locations/106/control");
    const downstairs = page.getByRole("article", { name: "Downstairs" });
    await downstairs.locator("details.thermo-back > summary").click();
    await expect(downstairs.getByTestId("card-back")).toContainText("permanent hold");
    await expect(downstairs.getByRole("button", { name: /Resolve Issue|DISMISS/ })).toHaveCount(0);
    await open(page, info, "/locations/108/control");
    const cafe = page.getByRole("article", { name: "Cafe Floor" });
    await cafe.locator("details.thermo-back > summary").click();
    await expect(cafe.getByTestId("card-back")).toContainText("resolving issue");
    await expect(cafe.getByRole("button", { name: /Resolve Issue|DISMISS/ })).toHaveCount(0);
    await a11y();
  });

  test("a setting change goes through and the action completes", async ({ page }, info) => {
    test.setTimeout(75_000);
    const id = pick(info, 1010, 1011);
    await open(page, info, "/locations/104/control");
    const card = page.getByTestId(`thermostat-${id}`);
    const name = (await card.getByRole("heading").textContent())!.trim();
    const settings = await openSettings(card);
    const cool = settings.getByLabel("Cool setpoint (°F)");
    const next = Number(await cool.inputValue()) >= 85 ? 72 : Number(await cool.inputValue()) + 1;
    if (isJs(info)) await expect(settings.getByRole("button", { name: "Save" })).toBeDisabled();
    await cool.fill(String(next));
    await settings.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Thermostat update submitted")).toBeVisible();
    // The outcome, not <body>: the redirect names the card; with JavaScript the card has the focus.
    await expect(page).toHaveURL(new RegExp(`#thermostat-${id}$`));
    if (isJs(info)) await expect(card).toBeFocused();
    await expect(card.getByTestId("receipt")).toContainText(`cool ${next}°F`);
    await expect(card.getByTestId("receipt")).toContainText("pending");
    await expect(toast(page, `Action completed for Thermostat: ${name}`)).toBeVisible({ timeout: 40_000 });
    await expect(card.getByTestId("receipt")).toContainText("completed");
    await expect(card.getByTestId("card-cool")).toHaveText(`${next}°F`);
    await expect(settings.getByLabel("Cool setpoint (°F)")).toHaveValue(String(next));
  });

  test("a Save the vendor refuses: the card says why, a toast too with JavaScript, no stale toast after", async ({
    page,
  }, info) => {
    const id = pick(info, 1010, 1011);
    const message = "The thermostat vendor is not answering";
    const planned = await fetch(`${apiUrl(info)}/dev/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        method: "POST",
        pathPrefix: `/thermostats/${id}/settings`,
        status: 503,
        message,
      }),
    });
    expect(planned.status).toBe(204);
    await open(page, info, "/locations/104/control");
    const card = page.getByTestId(`thermostat-${id}`);
    const settings = await openSettings(card);
    const cool = settings.getByLabel("Cool setpoint (°F)");
    const next = Number(await cool.inputValue()) >= 85 ? 72 : Number(await cool.inputValue()) + 1;
    await cool.fill(String(next));
    await settings.getByRole("button", { name: "Save" }).click();
    await expect(settings.getByRole("alert").filter({ hasText: message })).toBeVisible();
    // What was typed stays.
    await expect(settings.getByLabel("Cool setpoint (°F)")).toHaveValue(String(next));
    if (isJs(info)) await expect(toast(page, message)).toBeVisible();
    else await expect(page.getByTestId("toast")).toHaveCount(0);
    await expect(toast(page, "Thermostat update submitted")).toHaveCount(0);
    await open(page, info, "/locations");
    await expect(page.getByRole("heading", { name: "Locations", level: 1 })).toBeVisible();
    await expect(page.getByTestId("toast")).toHaveCount(0);
  });

  test("a card whose device moved on from its latest change says both", async ({ page }, info) => {
    await open(page, info, "/locations/101/control");
    const card = page.getByRole("article", { name: "Front Counter" });
    // The receipt: the grid event's precool change, completed; the device now reports other settings.
    await expect(card.getByTestId("receipt")).toContainText(
      "Latest change (grid event): mode cool, cool 70°F",
    );
    await expect(card.getByTestId("receipt")).toContainText("completed");
    const mode = (await card.getByTestId("card-mode").textContent())!.trim();
    const cool = (await card.getByTestId("card-cool").textContent())!.trim();
    expect(`${mode} ${cool}`).not.toBe("cool 70°F");
    await expect(card.getByTestId("receipt-followup")).toContainText(
      `The thermostat now reports mode ${mode}, cool ${cool}`,
    );
    await expect(card.getByTestId("receipt-followup")).toContainText("precooling ended when the event began");
  });

  test("a Seattle card's receipt and event times read in Seattle time, as on Grid Services", async ({
    page,
  }, info) => {
    await open(page, info, "/locations/101/control");
    const card = page.getByRole("article", { name: "Front Counter" });
    const receipt = (await card.getByTestId("receipt").textContent()) ?? "";
    const followUp = (await card.getByTestId("receipt-followup").textContent()) ?? "";
    // Labelled with the building's zone (Pacific), not New York's.
    const sent = /sent ([A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M P[SD]T) ·/.exec(receipt)?.[1];
    const began = /when the event began \(([^)]+ P[SD]T)\)/.exec(followUp)?.[1];
    expect(sent, receipt).toBeTruthy();
    expect(began, followUp).toBeTruthy();

    // The same event on Grid Services: its precool start is when the precool change was sent.
    await open(page, info, "/grid-services");
    const row = page
      .getByTestId("dispatch-row")
      .filter({ has: page.locator(".grid-address", { hasText: "1912 Pike Pl" }) })
      .first();
    const cell = async (label: string) => {
      const spans = await row.locator(`td[data-label="${label}"] time span`).allTextContents();
      return spans.map((t) => t.trim()).join(", ");
    };
    expect(await cell("Precool start")).toBe(sent);
    expect(await cell("Start")).toBe(began);
  });

  test("a comfort issue agrees with the card's readings", async ({ page }, info) => {
    await open(page, info, "/locations/105/control");
    const card = page.getByRole("article", { name: "Drive-Thru" });
    await expect(card.getByTestId("card-back")).toContainText("Issue: Heat setpoint above indoor temp");
    const degrees = async (dt: string) =>
      Number(
        /(\d+)°F/.exec(
          (await card
            .locator(".thermo-stats div", { has: page.getByText(dt, { exact: true }) })
            .locator("dd")
            .textContent()) ?? "",
        )?.[1],
      );
    expect(await degrees("Heat to")).toBeGreaterThan(await degrees("Indoor"));
  });

  test("headings go h1, then h2, without skipping a level", async ({ page, a11y }, info) => {
    for (const path of ["/locations/101/control", "/locations/101/control?tab=issues"]) {
      await open(page, info, path);
      const levels = await page
        .locator("main")
        .locator("h1, h2, h3, h4, h5, h6")
        .evaluateAll((els) => els.map((e) => Number(e.tagName.slice(1))));
      expect(levels[0], path).toBe(1);
      expect(levels.length, path).toBeGreaterThan(1);
      for (let i = 1; i < levels.length; i++)
        expect(levels[i] - levels[i - 1], `${path}: ${levels}`).toBeLessThanOrEqual(1);
      await expect(page.getByRole("heading", { name: "Front Counter", level: 2 })).toHaveCount(
        path.includes("issues") ? 0 : 1,
      );
      await a11y();
    }
  });

  test("an unlinked thermostat offers no settings and a forged Save is refused", async ({ page }, info) => {
    await open(page, info, "/locations/101/control");
    const card = page.getByTestId("thermostat-1004");
    await expect(card.getByTestId("card-status")).toHaveText("unlinked device");
    await expect(card).toContainText("we cannot read or change it");
    await expect(card.getByText("Change settings")).toHaveCount(0);
    await expect(card.getByRole("form")).toHaveCount(0);
    // A forged form (what a stale page or a hand-made request would post) is refused on the server.
    const answer = page.waitForResponse(
      (r) => r.request().method() === "POST" && r.url().includes("/locations/101/control"),
    );
    await page.evaluate(() => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = location.pathname;
      const fields: Record<string, string> = {
        intent: "save",
        thermostatId: "1004",
        tab: "all",
        mode: "cool",
        coolSetpointF: "70",
        heatSetpointF: "66",
      };
      for (const [name, value] of Object.entries(fields)) {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    });
    expect((await answer).status()).toBe(400);
    // The page after a document post: the card says why (a flash toast would only show on the next page).
    await expect(page.getByTestId("thermostat-1004").getByRole("alert")).toContainText(
      "so its settings cannot be changed",
    );
    await expect(toast(page, "Thermostat update submitted")).toHaveCount(0);
    await expect(page.getByTestId("thermostat-1004").getByTestId("receipt")).toHaveCount(0);
  });

  test("an unreachable thermostat says so before a change is made", async ({ page }, info) => {
    await open(page, info, "/locations/103/control");
    const card = page.getByRole("article", { name: "Espresso Bar" });
    await expect(card.getByTestId("card-status")).toHaveText("unreachable");
    const settings = await openSettings(card);
    await expect(settings.getByTestId("settings-warning")).toContainText(
      "This thermostat is not responding right now.",
    );
    await expect(settings.getByRole("button", { name: "Save" })).toBeVisible();
    // A reachable device's form carries no such warning.
    const other = page
      .getByRole("article")
      .filter({ hasNot: page.getByText("unreachable") })
      .first();
    await expect((await openSettings(other)).getByTestId("settings-warning")).toHaveCount(0);
  });

  test("a change to an unreachable thermostat fails with the vendor's reason", async ({ page }, info) => {
    test.setTimeout(75_000);
    const [building, id] = isJs(info) ? [102, 1005] : [103, 1007];
    await open(page, info, `/locations/${building}/control`);
    const card = page.getByTestId(`thermostat-${id}`);
    const name = (await card.getByRole("heading").textContent())!.trim();
    const settings = await openSettings(card);
    const heat = settings.getByLabel("Heat setpoint (°F)");
    const next = Number(await heat.inputValue()) <= 55 ? 65 : Number(await heat.inputValue()) - 1;
    await heat.fill(String(next));
    await settings.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Thermostat update submitted")).toBeVisible();
    await expect(toast(page, `Failed action for Thermostat: ${name}`)).toBeVisible({ timeout: 40_000 });
    await expect(card.getByTestId("receipt")).toContainText("failed");
    await expect(card.getByTestId("receipt")).toContainText("did not respond");
  });

  test("Cancel resets the form; invalid values are refused", async ({ page }, info) => {
    await open(page, info, "/locations/104/control");
    const settings = await openSettings(page.getByTestId("thermostat-1012"));
    const cool = settings.getByLabel("Cool setpoint (°F)");
    const original = await cool.inputValue();
    await cool.fill(String(Number(original) === 80 ? 81 : 80));
    if (isJs(info)) await expect(settings.getByRole("button", { name: "Save" })).toBeEnabled();
    await settings.getByRole("button", { name: "Cancel" }).click();
    await expect(cool).toHaveValue(original);
    if (isJs(info)) {
      await expect(settings.getByRole("button", { name: "Save" })).toBeDisabled();
      await cool.fill("95");
      await expect(settings.getByText("Cool setpoint must be at most 90°F")).toBeVisible();
      await expect(cool).toHaveAttribute("aria-invalid", "true");
      await expect(settings.getByRole("button", { name: "Save" })).toBeDisabled();
    } else {
      // Without JavaScript the browser's own limits (from the same schema) stop an out-of-range value.
      await expect(cool).toHaveAttribute("max", "90");
      await expect(cool).toHaveAttribute("min", "50");
    }
  });

  test("auto mode spacing is checked by the shared schema, in the browser and on the server", async ({
    page,
  }, info) => {
    await open(page, info, "/locations/104/control");
    const card = page.getByTestId("thermostat-1012");
    let settings = await openSettings(card);
    await settings.getByLabel("Mode").selectOption("auto");
    await settings.getByLabel("Cool setpoint (°F)").fill("70");
    await settings.getByLabel("Heat setpoint (°F)").fill("69");
    const message = "In auto mode the cool setpoint must be at least 3°F above the heat setpoint";
    if (isJs(info)) {
      await expect(settings.getByText(message)).toBeVisible();
      await expect(settings.getByRole("button", { name: "Save" })).toBeDisabled();
      await settings.getByRole("button", { name: "Cancel" }).click();
    } else {
      await settings.getByRole("button", { name: "Save" }).click();
      settings = card.locator("details.thermo-settings");
      await expect(settings.getByText(message)).toBeVisible();
      // The entered values stay, marked invalid; nothing was sent to the vendor.
      await expect(settings.getByLabel("Cool setpoint (°F)")).toHaveValue("70");
      await expect(settings.getByLabel("Cool setpoint (°F)")).toHaveAttribute("aria-invalid", "true");
      await expect(settings.getByLabel("Mode")).toHaveValue("auto");
      await expect(card.getByTestId("receipt")).toHaveCount(0);
    }
  });

  test("what is typed before the live form's chunk arrives stays, and the live form checks it", async ({
    page,
  }, info) => {
    // The live form (Conform and zod) is a chunk of its own: hold it back until the fields have been typed in.
    const release = await holdLiveFormChunk(page);
    await open(page, info, "/locations/104/control");
    const card = page.getByTestId("thermostat-1012");
    const settings = await openSettings(card);
    const heat = settings.getByLabel("Heat setpoint (°F)");
    await settings.getByLabel("Mode").selectOption("auto");
    await settings.getByLabel("Cool setpoint (°F)").fill("70");
    await heat.fill("6");
    const save = settings.getByRole("button", { name: "Save" });
    if (isJs(info)) {
      release();
      // The live form has taken over when it has checked the typed values (6°F is below every device's range).
      await expect(save).toBeDisabled();
    }
    // The focus stayed in the field: typing goes on where it was.
    await page.keyboard.type("9");
    await expect(settings.getByLabel("Mode")).toHaveValue("auto");
    await expect(settings.getByLabel("Cool setpoint (°F)")).toHaveValue("70");
    await expect(heat).toHaveValue("69");
    const message = "In auto mode the cool setpoint must be at least 3°F above the heat setpoint";
    if (isJs(info)) {
      await expect(settings.getByText(message)).toBeVisible();
      await expect(save).toBeDisabled();
    } else {
      await save.click();
      await expect(card.locator("details.thermo-settings").getByText(message)).toBeVisible();
      await expect(card.getByLabel("Heat setpoint (°F)")).toHaveValue("69");
    }
  });

  test("typed as the disclosure opens, while the live form's chunk loads: the value stays and Save is enabled", async ({
    page,
  }, info) => {
    test.skip(!isJs(info), "the hand-over between the closed and the live form needs JavaScript");
    const release = await holdLiveFormChunk(page);
    await open(page, info, "/locations/104/control");
    const card = page.getByTestId("thermostat-1012");
    const settings = card.locator("details.thermo-settings");
    const cool = settings.getByLabel("Cool setpoint (°F)");
    const current = Number(await cool.inputValue());
    const next = String(current >= 85 ? 72 : current + 1);
    // A value typed into the server's form in the same task as the click that opens it: React's toggle comes
    // after, replacing that form with the fallback that waits for the chunk (a fill racing the open did this
    // in a full run: the typed value was lost and Save stayed disabled).
    await settings.evaluate((details, value) => {
      details.querySelector("summary")!.click();
      const input = details.querySelector<HTMLInputElement>('input[name="coolSetpointF"]')!;
      input.value = value;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }, next);
    await expect(cool).toHaveValue(next);
    release();
    const save = settings.getByRole("button", { name: "Save" });
    await expect(save).toBeEnabled();
    await expect(cool).toHaveValue(next);
  });

  test("Resolve Issue moves the issue to resolving, then resolved", async ({ page }, info) => {
    const id = pick(info, 1013, 1014);
    await open(page, info, "/locations/105/control");
    const card = page.getByTestId(`thermostat-${id}`);
    const resolve = card.getByRole("button", { name: "Resolve Issue" });
    if ((await card.getByTestId("card-status").textContent()) !== "following schedule") {
      await card.locator("details.thermo-back > summary").click();
      await resolve.click();
      await expect(card.getByTestId("card-status")).toHaveText(/resolving issue|following schedule/);
    }
    // The vendor finishes after the short delay under test; the next load shows the device on schedule.
    await expect(async () => {
      await page.reload();
      await expect(card.getByTestId("card-status")).toHaveText("following schedule", { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(card).toHaveAttribute("data-border", "bright-green");
  });

  test("DISMISS dismisses the issue with a toast", async ({ page }, info) => {
    const id = pick(info, 1015, 1013);
    await open(page, info, "/locations/105/control");
    const card = page.getByTestId(`thermostat-${id}`);
    if ((await card.getByTestId("card-status").textContent()) !== "issue dismissed") {
      await card.locator("details.thermo-back > summary").click();
      await card.getByRole("button", { name: "DISMISS" }).click();
      await expect(toast(page, "Device issue dismissed.")).toBeVisible();
    }
    await expect(card.getByTestId("card-status")).toHaveText("issue dismissed");
    await expect(card).toHaveAttribute("data-border", "grey");
    await expect(card.getByRole("button", { name: "DISMISS" })).toHaveCount(0);
  });
});

test.describe("empty state", () => {
  test("a location without thermostats", async ({ page, a11y }, info) => {
    await loginAs(page, USERS.alex);
    await open(page, info, "/locations/201/control");
    await expect(page.getByTestId("empty-state")).toContainText(
      "There are no thermostats integrated for this location. This could be due to installations in progress or limitations on equipment.",
    );
    await expect(page.getByRole("tablist")).toHaveCount(0);
    await a11y();
  });
  test("another client's location goes back to the list", async ({ page }, info) => {
    await loginAs(page, USERS.alex);
    await open(page, info, "/locations/101/control");
    await expect(page).toHaveURL(/\/locations$/);
  });
});

test.describe("the dismissal email link", () => {
  // Front of House: an Enode thermostat whose hold does not auto-resolve (rule dismissal-offer lets it go).
  const LINK = "/dismiss-thermostat-issue?thermostatId=1013&issueSlug=permanent_hold";
  /** The link's page never hydrates: nothing to wait for, and no app JavaScript in either project. */
  const openLink = (page: Page, path: string) => openEmailPage(page, path);

  /** The link's page names the thermostat and the issue and changes nothing until its one button is pressed. */
  async function confirmDismissal(page: Page) {
    await expect(page.getByRole("heading", { name: "Dismiss this thermostat issue?" })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: "Front of House" })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: "Inactive schedule" })).toBeVisible();
    await page.getByRole("button", { name: "Dismiss issue" }).click();
    await expect(page.getByRole("heading", { name: "Thermostat feedback received" })).toBeVisible();
  }

  test("logged in: the link asks first, the button dismisses, idempotent", async ({ page, a11y }, info) => {
    await loginAs(page, USERS.dana);
    await openLink(page, LINK);
    await a11y();
    await confirmDismissal(page);
    await expectNoAppScripts(page);
    await a11y();
    // Opened again, the link says the issue is already dismissed and offers nothing more (rule dismissal-offer).
    await openLink(page, LINK);
    await expect(page.getByRole("heading", { name: "Already dismissed" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Dismiss issue" })).toHaveCount(0);
    // From the page without scripts into the app: a full document load, and the app hydrates there.
    await page.getByRole("link", { name: "Return to Dashboard" }).click();
    await expect(page).not.toHaveURL(/dismiss-thermostat-issue/);
    await ready(page, info);
    await expectJsState(page, info);
    await open(page, info, "/locations/105/control");
    await expect(page.getByRole("article", { name: "Front of House" }).getByTestId("card-status")).toHaveText(
      "issue dismissed",
    );
  });

  test("opening the link alone dismisses nothing", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    for (let i = 0; i < 2; i++) {
      await openLink(page, "/dismiss-thermostat-issue?thermostatId=1025&issueSlug=unchanging_schedule");
      await expect(page.getByRole("definition").filter({ hasText: "Counter" })).toBeVisible();
      await expect(page.getByRole("definition").filter({ hasText: "Inefficient schedule" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Dismiss issue" })).toBeVisible();
    }
    await open(page, info, "/locations/110/control");
    await expect(page.getByRole("article", { name: "Counter" }).getByTestId("card-status")).toHaveText(
      "inefficient schedule",
    );
  });

  test("missing parameter or failed call: Submission Failed", async ({ page }) => {
    await loginAs(page, USERS.dana);
    await openLink(page, "/dismiss-thermostat-issue?thermostatId=1024");
    await expect(page.getByRole("heading", { name: "Submission Failed" })).toBeVisible();
    await expect(
      page.getByText(
        "Something went wrong. Our engineering team has been notified and will remedy this issue.",
      ),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: "Return to Dashboard" })).toBeVisible();
    // Another client's (or an unknown) thermostat: nothing to name.
    await openLink(page, "/dismiss-thermostat-issue?thermostatId=2001&issueSlug=permanent_hold");
    await expect(page.getByRole("heading", { name: "Submission Failed" })).toBeVisible();
    // A link cut short in a mail client (the hold is open): a wrong parameter, not "This issue is resolved".
    await openLink(page, "/dismiss-thermostat-issue?thermostatId=1013&issueSlug=permanent_ho");
    await expect(page.getByRole("heading", { name: "Submission Failed" })).toBeVisible();
    await expect(page.getByText("This issue is resolved")).toHaveCount(0);
    // An Airzone device's issue cannot be dismissed here: a rule, not a failure. The page says why, with no
    // button (rule dismissal-offer; email-digest.spec posts anyway).
    await openLink(page, "/dismiss-thermostat-issue?thermostatId=1019&issueSlug=permanent_hold");
    await expect(page.getByRole("heading", { name: "This issue cannot be dismissed here" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Dismiss issue" })).toHaveCount(0);
  });

  test("logged out: login first, then the dismissal", async ({ page }, info) => {
    await open(page, info, LINK);
    await expect(page).toHaveURL(/\/login\?next=/);
    await page.getByLabel("Email").fill(USERS.dana);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page).toHaveURL(/\/dismiss-thermostat-issue\?thermostatId=1013&issueSlug=permanent_hold/);
    await confirmDismissal(page);
  });
});
