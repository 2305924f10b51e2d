import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runNotificationJob } from "../../api/mail/jobs";
import type { OutboxRow } from "../../api/mail/outbox-row";
import { USER } from "../../api/db/seed/ids";
import { getPage, startStack, webLogin, type Stack } from "../support/stack";

/**
 * A former member attacks with the links they kept (rule email-token-access): Sam's Bill Audit Alert links
 * work while he may see the location; once Dana removes his access on the team page (or he leaves the
 * client), the same links neither show the bill nor record an answer, and giving access back does not
 * revive them. The attack goes through the web pages a phone would open, without any session.
 */
let s: Stack;
const SAM = "sam@harborcoffee.test";
const DANA = "dana@harborcoffee.test";

beforeAll(async () => {
  s = await startStack();
  expect(await runNotificationJob(s.api.deps, "bill_flag")).toBeGreaterThan(0);
});
afterAll(async () => {
  await s?.stop();
});

/** Sam's alerts (an email may group several): each one's flag, location and answer links (as paths of the web). */
function samAlerts() {
  const rows = s.api.db
    .prepare("SELECT * FROM outbox WHERE to_email = ? AND kind = 'bill_flag' ORDER BY id")
    .all(SAM) as OutboxRow[];
  return rows.flatMap((m) => {
    const links = (JSON.parse(m.links_json) as string[]).map((l) => new URL(l));
    const path = (l: URL) => l.pathname + l.search;
    const confirms = links.filter((l) => l.pathname === "/fix-my-bill/dismissed");
    const investigates = links.filter((l) => l.pathname === "/fix-my-bill/action_requested");
    const spendings = links.filter(
      (l) => /^\/locations\/\d+\/spending$/.test(l.pathname) && l.hash.startsWith("#flag-"),
    );
    expect(spendings).toHaveLength(confirms.length);
    return confirms.map((confirm, i) => ({
      confirm: path(confirm),
      investigate: path(investigates[i]),
      buildingId: Number(spendings[i].pathname.split("/")[2]),
      flagId: Number(spendings[i].hash.replace("#flag-", "")),
    }));
  });
}

// The one name a location has in pages and emails (rule location-name), never its nickname in its place.
const locationName = (id: number) =>
  (s.api.db.prepare("SELECT name FROM buildings WHERE id = ?").get(id) as { name: string }).name;
const flagStatus = (id: number) =>
  (s.api.db.prepare("SELECT status FROM bill_flags WHERE id = ?").get(id) as { status: string }).status;
const answersOf = (id: number) =>
  (
    s.api.db.prepare("SELECT count(*) AS n FROM bill_flag_answers WHERE bill_flag_id = ?").get(id) as {
      n: number;
    }
  ).n;

const post = (path: string, form: Record<string, string | string[]>, cookie?: string) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
  return fetch(`${s.url}${path}`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: cookie ? { cookie } : {},
  });
};

/** Dana saves Sam's location access on the team page, as the form does. */
async function setSamAccess(cookie: string, buildings: number[]) {
  const res = await post(
    "/settings?tab=team&edit=" + USER.sam,
    {
      intent: "access-save",
      userId: String(USER.sam),
      building: buildings.map(String),
      submissionId: crypto.randomUUID(),
    },
    cookie,
  );
  expect([302, 303]).toContain(res.status);
}

const samBuildings = () =>
  (
    s.api.db
      .prepare(
        "SELECT building_id FROM user_building_access WHERE user_id = ? AND has_access = 1 ORDER BY building_id",
      )
      .all(USER.sam) as { building_id: number }[]
  ).map((r) => r.building_id);

describe("a former member's alert links", () => {
  it("after Dana removes his access to the location, Sam's link neither shows the bill nor answers", async () => {
    const alert = samAlerts()[0];
    expect(alert).toBeDefined();
    const name = locationName(alert.buildingId);
    // While he may see the location, the link names the bill.
    const open = await getPage(s.url, alert.investigate);
    expect(open.status).toBe(200);
    expect(open.body).toContain(name);

    const dana = await webLogin(s.url, DANA);
    const before = samBuildings();
    await setSamAccess(
      dana,
      before.filter((b) => b !== alert.buildingId),
    );
    expect(samBuildings()).not.toContain(alert.buildingId);

    const status = flagStatus(alert.flagId);
    for (const link of [alert.investigate, alert.confirm]) {
      const page = await getPage(s.url, link);
      expect(page.status).toBe(404);
      expect(page.body).not.toContain(name);
      expect(page.body).toContain("This link is not valid.");
      expect(page.headers.get("cache-control")).toContain("no-store");
      const token = new URL(link, s.url).searchParams.get("token")!;
      for (const answer of ["action_requested", "dismissed"]) {
        const res = await post(link, { token, answer });
        expect(res.status).toBe(404);
        expect(await res.text()).not.toContain(name);
      }
    }
    expect(flagStatus(alert.flagId)).toBe(status);
    expect(answersOf(alert.flagId)).toBe(0);

    // Access given back: the old links stay dead (a new alert brings new ones).
    await setSamAccess(dana, before);
    expect(samBuildings()).toContain(alert.buildingId);
    expect((await getPage(s.url, alert.investigate)).status).toBe(404);
    expect(
      (await post(alert.investigate, { token: new URL(alert.investigate, s.url).searchParams.get("token")! }))
        .status,
    ).toBe(404);
    expect(flagStatus(alert.flagId)).toBe(status);
  });

  it("a person who left the client can use none of their links, for any location", async () => {
    const alert = samAlerts().at(-1)!;
    const name = locationName(alert.buildingId);
    expect((await getPage(s.url, alert.confirm)).status).toBe(200);
    const status = flagStatus(alert.flagId);
    s.api.db.prepare("UPDATE users SET client_id = NULL WHERE id = ?").run(USER.sam);
    try {
      const page = await getPage(s.url, alert.confirm);
      expect(page.status).toBe(404);
      expect(page.body).not.toContain(name);
      const token = new URL(alert.confirm, s.url).searchParams.get("token")!;
      expect((await post(alert.confirm, { token })).status).toBe(404);
      expect(flagStatus(alert.flagId)).toBe(status);
    } finally {
      s.api.db
        .prepare("UPDATE users SET client_id = (SELECT client_id FROM users WHERE email = ?) WHERE id = ?")
        .run(DANA, USER.sam);
    }
  });
});
