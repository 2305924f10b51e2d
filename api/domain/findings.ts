import type { DB } from "../db";
import { placeholders } from "../db";
import type { Auth } from "../lib/auth";
import type { BuildingRow } from "../lib/buildings";
import * as clock from "../lib/clock";
import { answerJson, flagAnswers } from "../lib/flag-answers";
import { flagOutcomes, outcomeJson } from "../lib/flag-outcomes";
import { PREVIOUS_BILL_COLUMNS, type PreviousBillColumns } from "../lib/previous-bill";
import { BRAND } from "../lib/brand";
import { flagPrice } from "../../shared/flag-price";
import { missingBill } from "../../shared/missing-bill";
import { locationName } from "../../shared/location-name";
import { localDate } from "../lib/wall-clock";

/**
 * The findings of a client (docs/api/findings.md): every bill flag users see (a supplier or rate class change;
 * a supplier change to us is not a finding, rule shown-flag-types) on a bill of the locations this session may
 * see, priced from its bill (rule flag-price), with the answer on record and the outcome; and every missing bill
 * (rule missing-bill) of those locations' accounts. Not filtered by date: the web picks the period and sorts.
 */

type FlagFindingRow = {
  flag_id: number;
  type: string;
  status: string;
  bill_id: number;
  statement_date: string;
  rate_cents: number;
  consumption_kwh: number;
  supplier: string | null;
  account_id: number;
  account_number: string;
  building_id: number;
} & PreviousBillColumns;

type AccountRow = {
  id: number;
  number: string;
  building_id: number;
  arcadia_account_status_detail: string | null;
  last_statement_date: string | null;
};

// Its timezone: answers and outcomes are dated in the location's own day, as the emails and pages are.
const locationJson = (b: BuildingRow) => ({
  id: b.id,
  name: locationName(b),
  code: b.code,
  timezone: b.timezone,
});

/**
 * Which locations the answer covers: how many, and whether they are all of the client's (a person limited to
 * some locations reads "At your N locations").
 */
function scopeOf(db: DB, auth: Auth, buildings: BuildingRow[]) {
  const { n } = db
    .prepare("SELECT count(*) AS n FROM buildings WHERE client_id = ?")
    .get(auth.clientId ?? -1) as {
    n: number;
  };
  return { locations: buildings.length, all: buildings.length >= n };
}

export function clientFindings(db: DB, auth: Auth, buildings: BuildingRow[]) {
  const now = clock.now();
  const today = now.toISOString().slice(0, 10);
  const byId = new Map(buildings.map((b) => [b.id, b]));
  const ids = buildings.map((b) => b.id);
  const scope = scopeOf(db, auth, buildings);
  if (!ids.length) return { today, scope, items: [] };
  const flags = (
    db
      .prepare(
        `SELECT f.id AS flag_id, f.type, f.status, s.id AS bill_id, s.statement_date, s.rate_cents, s.consumption_kwh,
           s.supplier, s.account_id, a.number AS account_number, s.building_id, ${PREVIOUS_BILL_COLUMNS("s")}
         FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id
         JOIN utility_accounts a ON a.id = s.account_id
         WHERE f.type IN ('supplier_change', 'rate_class_change') AND s.building_id IN (${placeholders(ids.length)})
         ORDER BY s.statement_date DESC, f.id`,
      )
      .all(...ids) as FlagFindingRow[]
  ).filter((f) => !(f.type === "supplier_change" && f.supplier?.toLowerCase().includes(BRAND.toLowerCase())));
  const demo = auth.session.is_demo_mode === 1;
  const answers = flagAnswers(
    db,
    flags.map((f) => f.flag_id),
  );
  const outcomes = flagOutcomes(
    db,
    flags.map((f) => f.flag_id),
  );
  const items: unknown[] = flags.map((f) => {
    const price = flagPrice(
      { rateCents: f.rate_cents, kwh: f.consumption_kwh },
      f.previous_bill_id === null ? null : { rateCents: f.previous_rate_cents },
    );
    // Who answered and when: the latest answer (a closed investigation's "No, please investigate" included).
    const answered = answers.get(f.flag_id)?.at(-1);
    const outcome = outcomes.get(f.flag_id);
    return {
      kind: f.type,
      flag_id: f.flag_id,
      status: f.status,
      found_on: f.statement_date,
      building: locationJson(byId.get(f.building_id)!),
      account_id: f.account_id,
      account_number: f.account_number,
      bill: { id: f.bill_id, statement_date: f.statement_date },
      at_stake: { cents: price.cents, text: price.text },
      answered: answered ? answerJson(answered, auth.user.id, demo) : null,
      outcome: outcome ? outcomeJson(outcome, auth.user.id, demo) : null,
      missing: null,
    };
  });
  const accounts = db
    .prepare(
      `SELECT a.id, a.number, a.building_id, a.arcadia_account_status_detail,
         (SELECT MAX(s.statement_date) FROM bill_statements s WHERE s.account_id = a.id) AS last_statement_date
       FROM utility_accounts a WHERE a.building_id IN (${placeholders(ids.length)}) ORDER BY a.id`,
    )
    .all(...ids) as AccountRow[];
  for (const a of accounts) {
    // Counted in the location's own days (rule location-today), as its dashboard and accounts page count them.
    const missing = missingBill(
      { lastStatementDate: a.last_statement_date, statusDetail: a.arcadia_account_status_detail },
      localDate(now.getTime(), byId.get(a.building_id)!.timezone),
    );
    if (!missing) continue;
    items.push({
      kind: "missing_bill",
      flag_id: null,
      status: "missing",
      found_on: missing.foundOn,
      building: locationJson(byId.get(a.building_id)!),
      account_id: a.id,
      account_number: a.number,
      bill: null,
      at_stake: null,
      answered: null,
      outcome: null,
      missing: { last_statement_date: missing.lastStatementDate, days: missing.days, text: missing.text },
    });
  }
  return { today, scope, items };
}
