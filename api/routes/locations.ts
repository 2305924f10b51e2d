import * as clock from "../lib/clock";
import { z } from "zod";
import { type Auth, getAuth, sessionRouter, requireOwnClient, requireStaffAuth } from "../lib/auth";
import { listVisibleBuildings } from "../lib/buildings";
import { type ApiDeps, forbidden, notFound, pageQuery, paged, parse, route } from "../lib/http";
import { placeholders } from "../db";
import type { BillStatementRow } from "../db/rows";
import { energyAdvisorBuildings } from "../domain/energy-advisor";
import { rotateSession, userJson } from "../lib/sessions";
// Demo mode's stand-ins and the product's one CSV writer (quoting, spreadsheet formula neutralisation): the
// same the web uses, so a download shows what the pages show (shared/, ADR 0020).
import { demoAccountNumber, demoAddressLine, demoName, demoUtilityName } from "../../shared/demo-stand-ins";
import { toCsv, type CsvCell } from "../../shared/csv";
import { locationName } from "../../shared/location-name";
import { flagFigures } from "../lib/flag-figures";
import { flagPrice } from "../../shared/flag-price";
import { PREVIOUS_BILL_COLUMNS, type PreviousBillColumns } from "../lib/previous-bill";
import { BRAND } from "../lib/brand";

/* ---------- demo mode in the CSV export (rule demo-mode-anonymisation) ---------- */

function demoBuilding(b: { id: number; name: string; address: string }, demo: boolean) {
  if (!demo) return b;
  return { id: b.id, name: demoName(b.id), address: demoAddressLine(b.id) };
}

export const CSV_HEADER = [
  "Location",
  "Address",
  "Account #",
  "Utility",
  "Statement Date",
  "Service Start",
  "Service End",
  "Consumption (kWh)",
  // This bill's energy charge per kWh as rule flag-price takes it (to $0.0001): with the account's previous row,
  // At Stake recomputes; the header says which rate, as the bills carry several charges.
  "Energy Charge Rate ($/kWh) used for At Stake",
  "Demand (kW)",
  "Total Charges ($)",
  "Electric Charges ($)",
  "Supplier",
  // The bill's findings (rule flag-price): the shown flags' headings, the amount at stake and its inputs.
  "Bill Issues",
  "At Stake ($)",
  "At Stake",
];

/** The flags users see on a bill (a supplier change to us is not a finding), for the CSV's Bill Issues. */
function shownFlagsByBill(deps: ApiDeps, billIds: number[]) {
  const rows = deps.db
    .prepare(
      `SELECT f.id, f.bill_statement_id, f.type, f.status, s.supplier FROM bill_flags f
       JOIN bill_statements s ON s.id = f.bill_statement_id
       WHERE f.type IN ('supplier_change', 'rate_class_change')
         AND f.bill_statement_id IN (SELECT value FROM json_each(?)) ORDER BY f.id`,
    )
    .all(JSON.stringify(billIds)) as {
    id: number;
    bill_statement_id: number;
    type: string;
    status: string;
    supplier: string | null;
  }[];
  const out = new Map<number, string[]>();
  // Each flag's heading from its figures (rule flag-headings): a closed investigation by its outcome.
  const figures = flagFigures(
    deps.db,
    rows.map((f) => f.id),
  );
  for (const f of rows) {
    if (f.type === "supplier_change" && f.supplier?.toLowerCase().includes(BRAND.toLowerCase())) continue;
    out.set(f.bill_statement_id, [...(out.get(f.bill_statement_id) ?? []), figures.get(f.id)!.heading]);
  }
  return out;
}

/** A bill's findings in the CSV: headings, the amount at stake (empty when not priced) and the rule's words. */
function findingCells(
  r: { rate_cents: number; consumption_kwh: number } & PreviousBillColumns,
  headings: string[] | undefined,
): CsvCell[] {
  if (!headings?.length) return ["", "", ""];
  const price = flagPrice(
    { rateCents: r.rate_cents, kwh: r.consumption_kwh },
    r.previous_bill_id === null ? null : { rateCents: r.previous_rate_cents },
  );
  return [headings.join("; "), price.cents === null ? "" : (price.cents / 100).toFixed(2), price.text];
}

function exportCsv(deps: ApiDeps, auth: Auth) {
  const buildings = listVisibleBuildings(deps.db, auth);
  const lines: CsvCell[][] = [CSV_HEADER];
  if (buildings.length) {
    const rows = deps.db
      .prepare(
        `SELECT s.*, a.number AS account_number, u.name AS utility_name, ${PREVIOUS_BILL_COLUMNS("s")}
         FROM bill_statements s
         JOIN utility_accounts a ON a.id = s.account_id JOIN utilities u ON u.id = a.utility_id
         WHERE s.building_id IN (${placeholders(buildings.length)})
         ORDER BY s.building_id, s.statement_date DESC, a.number`,
      )
      .all(...buildings.map((b) => b.id)) as (Pick<
      BillStatementRow,
      | "id"
      | "building_id"
      | "account_number"
      | "utility_name"
      | "statement_date"
      | "service_start_date"
      | "service_end_date"
      | "consumption_kwh"
      | "demand_kw"
      | "total_charges_cents"
      | "total_electric_charges_cents"
      | "supplier"
      | "rate_cents"
    > &
      PreviousBillColumns)[];
    const flags = shownFlagsByBill(
      deps,
      rows.map((r) => r.id),
    );
    const byId = new Map(buildings.map((b) => [b.id, b]));
    const demo = auth.session.is_demo_mode === 1;
    for (const r of rows) {
      const b = byId.get(r.building_id)!;
      const shown = demoBuilding(
        {
          id: b.id,
          name: locationName(b),
          address: [b.address_line1, b.address_line2, `${b.city}, ${b.state} ${b.zipcode}`]
            .filter(Boolean)
            .join(", "),
        },
        demo,
      );
      lines.push([
        shown.name,
        shown.address,
        demo ? demoAccountNumber(r.account_number) : r.account_number,
        demo ? demoUtilityName(r.utility_name) : r.utility_name,
        r.statement_date,
        r.service_start_date,
        r.service_end_date,
        r.consumption_kwh,
        r.rate_cents === null ? "" : (Math.round(r.rate_cents * 100) / 10000).toFixed(4),
        r.demand_kw ?? "",
        (r.total_charges_cents / 100).toFixed(2),
        (r.total_electric_charges_cents / 100).toFixed(2),
        r.supplier === null ? "" : demo ? demoUtilityName(r.supplier) : r.supplier,
        ...findingCells(r, flags.get(r.id)),
      ]);
    }
  }
  return toCsv(lines);
}

const impersonationBody = z.object({
  client_id: z.coerce.number().int().positive("Choose a client"),
  reason: z
    .string({ required_error: "Please give a reason" })
    .trim()
    .min(3, "Please give a reason (at least 3 characters)")
    .max(500, "Keep the reason under 500 characters"),
});

const clientsQuery = pageQuery.extend({ search: z.string().trim().max(100).optional() });

/**
 * The locations area: energy-advisor buildings, the vendor alert, the bill statements CSV, and the staff
 * endpoints (clients, impersonation with its audit log, demo mode).
 */
export function locationsRoutes(deps: ApiDeps) {
  const { r, db } = sessionRouter(deps, [
    "/client",
    "/device-vendor-service-alert",
    "/clients",
    "/impersonation",
    "/demo-mode",
  ]);

  r.get(
    "/client/:clientId/energy-advisor-buildings",
    route((req, res) => {
      const auth = getAuth(res);
      requireOwnClient(auth, req.params.clientId);
      res.json({ items: energyAdvisorBuildings(deps, listVisibleBuildings(db, auth)) });
    }),
  );

  r.get(
    "/client/:clientId/bill-statements/export-csv",
    route((req, res) => {
      const auth = getAuth(res);
      const clientId = requireOwnClient(auth, req.params.clientId);
      res.setHeader("content-type", "text/csv; charset=utf-8");
      res.setHeader("x-no-convert", "true");
      res.setHeader("content-disposition", `attachment; filename="bill-statements-summary-${clientId}.csv"`);
      res.send(exportCsv(deps, auth));
    }),
  );

  r.get(
    "/device-vendor-service-alert",
    route((_req, res) => {
      const row = db
        .prepare("SELECT message FROM vendor_service_alerts WHERE show_alert = 1 ORDER BY id DESC LIMIT 1")
        .get() as { message: string } | undefined;
      res.json({ show_alert: Boolean(row), message: row?.message ?? null });
    }),
  );

  r.get(
    "/clients",
    route((req, res) => {
      requireStaffAuth(getAuth(res));
      const { page, size, search } = parse(clientsQuery, req.query, "query");
      const rows = (
        search
          ? db
              .prepare(
                "SELECT id, name, client_type FROM clients WHERE name LIKE ? ESCAPE '\\' ORDER BY name, id",
              )
              .all(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
          : db.prepare("SELECT id, name, client_type FROM clients ORDER BY name, id").all()
      ) as { id: number; name: string; client_type: string }[];
      res.json(paged(rows, page, size));
    }),
  );

  r.post(
    "/impersonation",
    route((req, res) => {
      const auth = getAuth(res);
      requireStaffAuth(auth);
      const body = parse(impersonationBody, req.body);
      const client = db.prepare("SELECT id FROM clients WHERE id = ?").get(body.client_id);
      if (!client) throw notFound();
      const now = clock.now().toISOString();
      const rotated = db.transaction(() => {
        // A staff member impersonates one client at a time: switching ends the previous audit entry.
        db.prepare(
          "UPDATE impersonation_audit SET ended_at = ? WHERE staff_user_id = ? AND ended_at IS NULL",
        ).run(now, auth.user.id);
        db.prepare(
          "INSERT INTO impersonation_audit (staff_user_id, client_id, reason, started_at) VALUES (?, ?, ?, ?)",
        ).run(auth.user.id, body.client_id, body.reason, now);
        // A privilege change: a new session token (Set-Cookie), the old one revoked.
        return rotateSession(deps, res, auth, body.client_id);
      })();
      res.json(userJson(deps, rotated));
    }),
  );

  r.delete(
    "/impersonation",
    route((req, res) => {
      const auth = getAuth(res);
      requireStaffAuth(auth);
      const now = clock.now().toISOString();
      const rotated = db.transaction(() => {
        db.prepare(
          "UPDATE impersonation_audit SET ended_at = ? WHERE staff_user_id = ? AND ended_at IS NULL",
        ).run(now, auth.user.id);
        return rotateSession(deps, res, auth, null);
      })();
      res.json(userJson(deps, rotated));
    }),
  );

  r.get(
    "/demo-mode",
    route((_req, res) => {
      res.json({ is_demo_mode: getAuth(res).session.is_demo_mode === 1 });
    }),
  );

  r.put(
    "/demo-mode",
    route((req, res) => {
      const auth = getAuth(res);
      if (!auth.isStaff || auth.session.impersonated_client_id === null) throw forbidden();
      const { is_demo_mode } = parse(z.object({ is_demo_mode: z.boolean() }), req.body);
      db.prepare("UPDATE sessions SET is_demo_mode = ? WHERE id = ?").run(
        is_demo_mode ? 1 : 0,
        auth.session.id,
      );
      res.json({ is_demo_mode });
    }),
  );

  return r;
}
