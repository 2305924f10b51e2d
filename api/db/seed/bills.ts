import { prng } from "../../lib/prng";
import { addDays, isoDate, type SeedContext } from "./context";
import { HARBOR_ACCOUNT_ROWS, SAM_BUILDINGS, UTILITY_FOR_BUILDING, UTILITY_ROWS } from "./core";
import { CLIMATE } from "./usage";
import { USER } from "./ids";

export const BILL_MONTHS = 13;
/** Locations whose latest bill has a demand spike (≥ 1.5 × the 12-month mean demand). */
export const DEMAND_SPIKE_BUILDINGS = [104, 112];
/**
 * The one account with a missing bill (rule missing-bill): 113's first account (08812-44190, Inactive, "no bills
 * discovered after the most recent next expected post date") has had no statement for about 60 days; every other
 * account's latest statement is 3 to 11 days old, whatever the clock, and 113's other account keeps the location's
 * last bill recent.
 */
export const MISSING_BILL_ACCOUNT = 1017;
export const STALE_BILL_AGE_DAYS = 60;

/** Third-party suppliers: [bill index from which (and newer) the supplier is this one, supplier]. */
const SUPPLIER_CHANGES: Record<number, [number, string]> = {
  1001: [0, "Constellation NewEnergy"],
  1005: [0, "Calpine Energy Solutions"],
  1007: [0, "Direct Energy Business"],
  1009: [12, "MC Squared Energy Services"],
  1010: [3, "Constellation NewEnergy"],
  1011: [12, "Agway Energy Services"],
  1013: [0, "Agway Energy Services"],
  1014: [1, "Direct Energy Business"],
  1015: [0, "EnergyOps Energy Services"],
  1018: [0, "Direct Energy Business"],
};

/** The first flag's id; each FLAG_SEEDS entry is the next. */
export const FIRST_FLAG_ID = 7001;
const flagIdOf = (account: number, index: number, type: string) =>
  FIRST_FLAG_ID + FLAG_SEEDS.findIndex(([a, i, t]) => a === account && i === index && t === type);

/**
 * Closed investigations (rule flag-outcome), by Morgan (staff): 108's supplier change three bills back ended with
 * a credit, 111's rate class change on the bill before last was correct. 110's supplier change and 105's rate
 * class change are still open (action requested).
 */
export const FLAG_OUTCOME_SEEDS: [
  account: number,
  index: number,
  type: string,
  outcome: string,
  credit: number | null,
  note: string,
][] = [
  [
    1010,
    3,
    "supplier_change",
    "credit_received",
    18250,
    "The utility reversed the supplier enrolment we did not authorise and credited the difference.",
  ],
  [
    1014,
    1,
    "rate_class_change",
    "billing_correct",
    null,
    "The new rate class follows the higher demand at this location; the utility billed it correctly.",
  ],
];

/** 108's supplier change three bills back, closed with a credit of $182.50: its bill's rate rose over the one before. */
const CREDITED_SUPPLIER_CHANGE: [account: number, index: number, creditCents: number] = [1010, 3, 18250];

type FlagSeed = [account: number, billIndex: number, type: string, status: string];
/**
 * Bill flags of every type and status (bill index 0 is the latest bill of the account). The tests answer
 * distinct flags per project: 102 and 104 (js), 106 and 109 (nojs), 114 (js) and 113 (nojs) for the
 * stale-page failure, two each so that a retried test still finds one.
 */
export const FLAG_SEEDS: FlagSeed[] = [
  [1001, 0, "supplier_change", "unacknowledged"],
  [1001, 0, "rate_class_change", "unacknowledged"],
  [1002, 2, "electric_charge_spike", "completed"],
  [1002, 5, "zero_meter_read", "dismissed"],
  [1003, 0, "rate_class_change", "unacknowledged"],
  [1005, 0, "supplier_change", "unacknowledged"],
  [1005, 0, "new_demand_charges", "unacknowledged"],
  [1005, 1, "high_supply_rate", "action_requested"],
  [1006, 0, "rate_class_change", "action_requested"],
  [1007, 0, "supplier_change", "unacknowledged"],
  [1007, 3, "meter_multiplier_change", "completed"],
  [1009, 2, "electric_charge_spike", "unacknowledged"],
  [1009, 2, "high_supply_rate", "dismissed"],
  [1010, 3, "supplier_change", "completed"],
  [1010, 3, "new_demand_charges", "action_requested"],
  [1010, 3, "meter_read_type", "completed"],
  [1011, 0, "rate_class_change", "unacknowledged"],
  [1011, 1, "zero_meter_read", "unacknowledged"],
  [1013, 0, "supplier_change", "action_requested"],
  [1013, 0, "rate_class_change", "dismissed"],
  [1014, 0, "meter_read_type", "unacknowledged"],
  [1014, 1, "supplier_change", "dismissed"],
  [1014, 1, "rate_class_change", "completed"],
  [1015, 0, "supplier_change", "unacknowledged"],
  [1015, 2, "zero_meter_read", "action_requested"],
  [1015, 4, "meter_multiplier_change", "dismissed"],
  [1017, 0, "rate_class_change", "unacknowledged"],
  [1017, 1, "rate_class_change", "unacknowledged"],
  [1018, 0, "supplier_change", "unacknowledged"],
  [1019, 0, "rate_class_change", "unacknowledged"],
  [1019, 1, "rate_class_change", "unacknowledged"],
  [1020, 0, "rate_class_change", "unacknowledged"],
];

/** Average outdoor temperature of a calendar month (from the usage climate model) drives the monthly load. */
function monthLoadFactor(building: number, month: number) {
  const c = CLIMATE[building] ?? CLIMATE[101];
  const t = c.mean - c.amp * Math.cos((2 * Math.PI * (month * 30.4)) / 365);
  return 1 + Math.max(0, t - 65) * 0.025 + Math.max(0, 55 - t) * 0.015;
}

/** 13 monthly bills per Harbor account with consumption, demand, rate, charges and supplier; then the flags. */
export function seedBills(ctx: SeedContext) {
  const { db, today } = ctx;
  const rand = prng(5032);
  const insertBill = db.prepare(
    `INSERT INTO bill_statements (id, building_id, account_id, statement_date, service_start_date, service_end_date,
      consumption_kwh, demand_kw, rate_cents, total_charges_cents, total_electric_charges_cents, supplier)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const utilityName = new Map(UTILITY_ROWS.map(([id, name]) => [id, name]));
  /** Each bill's id and statement date, by `account:index`. */
  const bills = new Map<string, { id: number; statement: Date }>();
  let nextId = 50001;
  for (const [accountId, building, , status] of HARBOR_ACCOUNT_ROWS) {
    const c = CLIMATE[building];
    const share =
      HARBOR_ACCOUNT_ROWS.filter((a) => a[1] === building).findIndex((a) => a[0] === accountId) === 0
        ? 1
        : 0.35;
    const lag = accountId === MISSING_BILL_ACCOUNT ? STALE_BILL_AGE_DAYS : 3 + (accountId % 9);
    const baseRate = 11 + rand() * 9;
    const rows: {
      i: number;
      start: Date;
      end: Date;
      statement: Date;
      kwh: number;
      kw: number;
      rate: number;
    }[] = [];
    for (let i = BILL_MONTHS - 1; i >= 0; i--) {
      const statement = addDays(today, -lag - Math.round(30.44 * i));
      const end = addDays(statement, -4);
      const start = addDays(end, -29 - (i % 3 === 0 ? 1 : 0));
      const factor = monthLoadFactor(building, end.getUTCMonth());
      const kwh = Math.round(9800 * c.scale * share * factor * (0.94 + rand() * 0.12));
      const kw = Math.round(38 * c.scale * share * factor * (0.92 + rand() * 0.16) * 10) / 10;
      const rate = Math.round((baseRate + (i < 3 ? 1.2 : 0) + rand() * 0.8) * 1000) / 1000;
      rows.push({ i, start, end, statement, kwh, kw, rate });
    }
    if (accountId === CREDITED_SUPPLIER_CHANGE[0]) {
      // The unauthorised supplier charged more per kWh than the bill before: the finding is priced (rule
      // flag-price) at about $20 more than the credit the utility gave back (FLAG_OUTCOME_SEEDS).
      const [, index, creditCents] = CREDITED_SUPPLIER_CHANGE;
      const bill = rows.find((r) => r.i === index)!;
      const before = rows.find((r) => r.i === index + 1)!;
      bill.rate = before.rate + Math.ceil(((creditCents + 2000) / bill.kwh) * 100) / 100;
    }
    if (DEMAND_SPIKE_BUILDINGS.includes(building)) {
      const others = rows.filter((r) => r.i > 0);
      const mean = others.reduce((s, r) => s + r.kw, 0) / others.length;
      rows.find((r) => r.i === 0)!.kw = Math.round(mean * 1.8 * 10) / 10;
    }
    void status;
    const utility = utilityName.get(UTILITY_FOR_BUILDING[building]) ?? null;
    for (const r of rows) {
      const change = SUPPLIER_CHANGES[accountId];
      const supplier = change && r.i <= change[0] ? change[1] : utility;
      const energy = r.kwh * r.rate;
      const demandCharge = r.kw * 1450; // $14.50 per kW
      const electric = Math.round(energy + demandCharge + 1800);
      const total = Math.round(electric * 1.0625);
      const id = nextId++;
      bills.set(`${accountId}:${r.i}`, { id, statement: r.statement });
      insertBill.run(
        id,
        building,
        accountId,
        isoDate(r.statement),
        isoDate(r.start),
        isoDate(r.end),
        r.kwh,
        r.kw,
        r.rate,
        total,
        electric,
        supplier,
      );
    }
  }

  const insertFlag = db.prepare(
    "INSERT INTO bill_flags (id, bill_statement_id, type, status, previous_supplier, details_json, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const insertAnswer = db.prepare(
    "INSERT INTO bill_flag_answers (bill_flag_id, user_id, answer, source, answered_at) VALUES (?, ?, ?, ?, ?)",
  );
  let flagId = FIRST_FLAG_ID;
  for (const [accountId, index, type, status] of FLAG_SEEDS) {
    const bill = bills.get(`${accountId}:${index}`);
    if (!bill) continue;
    const building = HARBOR_ACCOUNT_ROWS.find((a) => a[0] === accountId)![1];
    const previous =
      type === "supplier_change" ? (utilityName.get(UTILITY_FOR_BUILDING[building]) ?? null) : null;
    const details = previous ? { previous_supplier: previous } : {};
    const id = flagId++;
    const answer = seededAnswer(building, index, status, bill.statement);
    insertFlag.run(
      id,
      bill.id,
      type,
      status,
      previous,
      JSON.stringify(details),
      (answer?.at ?? addDays(today, -index * 30)).toISOString(),
    );
    if (answer) insertAnswer.run(id, answer.userId, answer.answer, answer.source, answer.at.toISOString());
  }
  seedFlagOutcomes(ctx);
}

/**
 * Who answered a seeded flag (rule flag-answer-history), two days after its bill's statement: Sam where he may see
 * the location, Dana elsewhere; from the alert's link on older bills, on the spending page on the latest. A closed
 * investigation (`completed`) was first an investigation request. Unanswered flags have no history.
 */
function seededAnswer(building: number, index: number, status: string, statement: Date) {
  if (status === "unacknowledged") return null;
  return {
    userId: SAM_BUILDINGS.includes(building) ? USER.sam : USER.dana,
    answer: status === "dismissed" ? "dismissed" : "action_requested",
    source: index === 0 ? "app" : "email",
    at: new Date(statement.getTime() + 2 * 86_400_000 + 9 * 3_600_000),
  };
}

/** The seeded outcomes of closed investigations (FLAG_OUTCOME_SEEDS), a day after each flag's bill was raised. */
export function seedFlagOutcomes({ db, today }: SeedContext) {
  const insert = db.prepare(
    "INSERT INTO bill_flag_outcomes (bill_flag_id, outcome, credit_cents, note, user_id, closed_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (const [account, index, type, outcome, credit, note] of FLAG_OUTCOME_SEEDS) {
    insert.run(
      flagIdOf(account, index, type),
      outcome,
      credit,
      note,
      USER.morgan,
      addDays(today, -index * 30 + 7).toISOString(),
    );
  }
}
