import type { DB } from "../db";
import type { Auth } from "../lib/auth";
import { answerJson, flagAnswers } from "../lib/flag-answers";
import { PREVIOUS_BILL_COLUMNS, type PreviousBillColumns } from "../lib/previous-bill";
import { BRAND } from "../lib/brand";
import { flagPrice } from "../../shared/flag-price";

/**
 * The staff's investigation queue (rule investigation-queue, docs/rules.md): every open investigation (a flag a
 * client answered "No, please investigate", status `action_requested`) across all clients, of the flags users
 * see (rule shown-flag-types: a flag nobody was shown is nobody's request), with its client, location, bill,
 * price (rule flag-price) and who asked when; oldest request first. Staff alone read it, impersonating or not.
 */

type Row = {
  flag_id: number;
  type: string;
  previous_supplier: string | null;
  updated_at: string;
  bill_id: number;
  statement_date: string;
  rate_cents: number;
  consumption_kwh: number;
  total_charges_cents: number;
  supplier: string | null;
  account_id: number;
  account_number: string;
  building_id: number;
  building_name: string;
  building_nickname: string | null;
  building_code: string;
  timezone: string;
  client_id: number;
  client_name: string;
  client_type: string;
} & PreviousBillColumns;

export function openInvestigations(db: DB, auth: Auth) {
  const rows = (
    db
      .prepare(
        `SELECT f.id AS flag_id, f.type, f.previous_supplier, f.updated_at, s.id AS bill_id, s.statement_date,
           s.rate_cents, s.consumption_kwh, s.total_charges_cents, s.supplier, s.account_id,
           a.number AS account_number, b.id AS building_id, b.name AS building_name,
           b.nickname AS building_nickname, b.code AS building_code, b.timezone, c.id AS client_id,
           c.name AS client_name, c.client_type, ${PREVIOUS_BILL_COLUMNS("s")}
         FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id
         JOIN utility_accounts a ON a.id = s.account_id
         JOIN buildings b ON b.id = s.building_id JOIN clients c ON c.id = b.client_id
         WHERE f.status = 'action_requested' AND f.type IN ('supplier_change', 'rate_class_change')
         ORDER BY f.id`,
      )
      .all() as Row[]
  ).filter((f) => !(f.type === "supplier_change" && f.supplier?.toLowerCase().includes(BRAND.toLowerCase())));
  const demo = auth.session.is_demo_mode === 1;
  const answers = flagAnswers(
    db,
    rows.map((r) => r.flag_id),
  );
  const items = rows.map((f) => {
    const price = flagPrice(
      { rateCents: f.rate_cents, kwh: f.consumption_kwh },
      f.previous_bill_id === null ? null : { rateCents: f.previous_rate_cents },
    );
    // The request: the latest "No, please investigate" (a flag asked again after a withdrawal counts from then).
    const asked = answers
      .get(f.flag_id)
      ?.filter((a) => a.answer === "action_requested")
      .at(-1);
    return {
      flag_id: f.flag_id,
      type: f.type,
      // Demo mode's stand-ins are the web's (a client object is one with a type, a building one under `building`).
      client: { id: f.client_id, name: f.client_name, client_type: f.client_type },
      building: {
        id: f.building_id,
        name: f.building_nickname || f.building_name,
        code: f.building_code,
        timezone: f.timezone,
      },
      account: { id: f.account_id, number: f.account_number },
      bill: {
        id: f.bill_id,
        statement_date: f.statement_date,
        total_charges: f.total_charges_cents,
        supplier: f.supplier,
        previous_supplier: f.previous_supplier,
      },
      at_stake: { cents: price.cents, text: price.text },
      asked: asked ? answerJson(asked, auth.user.id, demo) : null,
      // When it was asked: the request's time, or (no history kept) when the flag last changed.
      asked_at: asked?.answered_at ?? f.updated_at,
    };
  });
  items.sort((a, b) => (a.asked_at < b.asked_at ? -1 : a.asked_at > b.asked_at ? 1 : a.flag_id - b.flag_id));
  return { items };
}
