/**
 * The demo seed agrees with the rules (rules setpoint-issues-match-readings and onboarding-matches-data): every
 * seeded setpoint issue is one the seeded readings bear out, every client's onboarding steps agree with its
 * accounts and thermostats, and a client whose steps are all complete is not asked to "Set up your account".
 */
import { beforeAll, describe, expect, it } from "vitest";
import { openDb, type DB } from "../../api/db";
import { seedIfEmpty } from "../../api/db/seed";
import { CLIENT } from "../../api/db/seed/ids";
import { isReadingIssue, readingsBearOut } from "../../api/domain/setpoint-issues";
import { onboardingContradictions } from "../../api/domain/onboarding-facts";
import { onboardingIncomplete } from "~/features/locations/locations";

let db: DB;

beforeAll(() => {
  db = openDb(":memory:");
  seedIfEmpty(db, { staffEmailDomain: "energyops.test" });
}, 120_000);

describe("the seeded demo data", () => {
  it("raises only setpoint issues the seeded readings bear out", () => {
    const rows = db
      .prepare(
        `SELECT t.device_name AS name, i.issue_slug AS slug, t.temp_indoor_f AS tempIndoorF,
                t.cool_setpoint_f AS coolSetpointF, t.heat_setpoint_f AS heatSetpointF
           FROM thermostat_issues i JOIN thermostats t ON t.id = i.thermostat_id
          WHERE i.current_status <> 'resolved'`,
      )
      .all() as {
      name: string;
      slug: string;
      tempIndoorF: number;
      coolSetpointF: number;
      heatSetpointF: number;
    }[];
    const checked = rows.filter((r) => isReadingIssue(r.slug));
    // Drive-Thru's and the Lobby's comfort issues, at least.
    expect(checked.length).toBeGreaterThanOrEqual(2);
    const contradicted = checked
      .filter((r) => !readingsBearOut(r.slug, r))
      .map(
        (r) =>
          `${r.name}: ${r.slug} (indoor ${r.tempIndoorF}, heat ${r.heatSetpointF}, cool ${r.coolSetpointF})`,
      );
    expect(contradicted).toEqual([]);
  });

  it("gives every client onboarding steps its accounts and thermostats agree with", () => {
    const clients = db.prepare("SELECT id FROM clients").all() as { id: number }[];
    for (const { id } of clients) {
      const steps = db.prepare("SELECT name, status FROM onboarding_steps WHERE client_id = ?").all(id) as {
        name: string;
        status: string;
      }[];
      const { connected } = db
        .prepare(
          "SELECT count(*) AS connected FROM utility_accounts WHERE client_id = ? AND arcadia_account_status = 'CONNECTION_SUCCESS'",
        )
        .get(id) as { connected: number };
      const { thermostats } = db
        .prepare(
          "SELECT count(*) AS thermostats FROM thermostats t JOIN buildings b ON b.id = t.building_id WHERE b.client_id = ?",
        )
        .get(id) as { thermostats: number };
      expect(
        onboardingContradictions(steps, { connectedAccounts: connected, thermostats }),
        `client ${id}`,
      ).toEqual([]);
    }
  });

  it("does not ask the fully set-up client to set up its account; the other demo client shows every status", () => {
    const stepsOf = (clientId: number) =>
      db
        .prepare("SELECT status FROM onboarding_steps WHERE client_id = ? ORDER BY position")
        .all(clientId) as {
        status: string;
      }[];
    expect(stepsOf(CLIENT.harbor).map((s) => s.status)).toEqual(["complete", "complete", "complete"]);
    expect(onboardingIncomplete(stepsOf(CLIENT.harbor))).toBe(false);
    expect(new Set(stepsOf(CLIENT.maple).map((s) => s.status))).toEqual(
      new Set(["not_started", "in_progress", "complete"]),
    );
    expect(onboardingIncomplete(stepsOf(CLIENT.maple))).toBe(true);
  });
});
