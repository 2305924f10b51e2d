import PDFDocument from "pdfkit";
import { z } from "zod";
import type { DB } from "../db";
import type { BillStatementRow } from "../db/rows";
import { type Auth, getAuth, requireStaffAuth, sessionRouter } from "../lib/auth";
import { requireBillAccess } from "../lib/access";
import { type BuildingRow, buildingAddress, requireBuilding, buildingRoute } from "../lib/buildings";
import { type ApiDeps, HttpError, notFound, parse, asyncRoute, route, validationError } from "../lib/http";
import { answerJson, answerOnRecord, flagAnswers, recordFlagAnswer } from "../lib/flag-answers";
import { isoDate } from "../lib/schemas";
import { pathId } from "../lib/ids";
import { closeFlag, flagOutcomes, outcomeJson } from "../lib/flag-outcomes";
import { FLAG_OUTCOMES, outcomeProblem } from "../../shared/flag-outcome";
import { FLAG_ANSWER_LIMIT_REACHED } from "../../shared/bill-flags";
import { prepareFlagOutcome } from "../mail/jobs";
import * as clock from "../lib/clock";
import { PREVIOUS_BILL_COLUMNS, type PreviousBillColumns } from "../lib/previous-bill";
// Demo mode's stand-ins (docs/rules.md, demo-mode-anonymisation), the same the web shows (ADR 0020).
import { demoAccountNumber, demoAddressLine, demoUtilityName } from "../../shared/demo-stand-ins";

type BillRow = BillStatementRow & PreviousBillColumns;
type FlagRow = {
  id: number;
  bill_statement_id: number;
  type: string;
  status: string;
  previous_supplier: string | null;
  details_json: string;
  updated_at: string;
};

export const BILL_FLAG_TYPES = [
  "zero_meter_read",
  "supplier_change",
  "rate_class_change",
  "electric_charge_spike",
  "new_demand_charges",
  "high_supply_rate",
  "meter_read_type",
  "meter_multiplier_change",
] as const;
export const BILL_FLAG_STATUSES = ["unacknowledged", "action_requested", "dismissed", "completed"] as const;

const BILL_SELECT = `SELECT s.*, a.number AS account_number, u.id AS utility_id, u.name AS utility_name,
  ${PREVIOUS_BILL_COLUMNS("s")}
  FROM bill_statements s JOIN utility_accounts a ON a.id = s.account_id JOIN utilities u ON u.id = a.utility_id`;

/** The reader of a flag: their id (is an answer theirs?) and demo mode (no real names). */
type Reader = {
  userId: number;
  demo: boolean;
  answers: ReturnType<typeof flagAnswers>;
  outcomes: ReturnType<typeof flagOutcomes>;
};

const readerOf = (db: DB, auth: Auth, flagIds: number[]): Reader => ({
  userId: auth.user.id,
  demo: auth.session.is_demo_mode === 1,
  answers: flagAnswers(db, flagIds),
  outcomes: flagOutcomes(db, flagIds),
});

/** A flag with its answers (rule flag-answer-history): the one on record (or null) and the whole history. */
function flagJson(f: FlagRow, reader: Reader) {
  const details = JSON.parse(f.details_json) as Record<string, unknown>;
  const answers = reader.answers.get(f.id) ?? [];
  const onRecord = answerOnRecord(f.status, answers);
  return {
    id: f.id,
    bill_statement_id: f.bill_statement_id,
    type: f.type,
    status: f.status,
    details: { ...details, previous_supplier: f.previous_supplier },
    updated_at: f.updated_at,
    answer_on_record: onRecord ? answerJson(onRecord, reader.userId, reader.demo) : null,
    answers: answers.map((a) => answerJson(a, reader.userId, reader.demo)),
    // How the investigation ended (rule flag-outcome), or null.
    outcome: reader.outcomes.has(f.id)
      ? outcomeJson(reader.outcomes.get(f.id)!, reader.userId, reader.demo)
      : null,
  };
}

function billJson(s: BillRow, building: BuildingRow, flags: FlagRow[], reader: Reader) {
  return {
    id: s.id,
    building_id: s.building_id,
    building_address: buildingAddress(building),
    building_timezone: building.timezone,
    account_id: s.account_id,
    account_number: s.account_number,
    statement_date: s.statement_date,
    service_start_date: s.service_start_date,
    service_end_date: s.service_end_date,
    consumption: s.consumption_kwh,
    demand: s.demand_kw,
    rate: s.rate_cents,
    total_charges: s.total_charges_cents,
    total_electric_charges: s.total_electric_charges_cents,
    supplier: s.supplier,
    utility: { id: s.utility_id, name: s.utility_name },
    // The previous bill of the same account, for the price of a finding (rule flag-price); null for the first.
    previous_bill:
      s.previous_bill_id === null ? null : { id: s.previous_bill_id, rate: s.previous_rate_cents },
    flags: flags.map((f) => flagJson(f, reader)),
  };
}

/** A bill statement of a building the session may see, or 404. */
export function requireBill(db: DB, auth: Auth, statementId: string | number) {
  // Rule object-access: a bill of a location the session may see (else 404).
  const { id, building_id } = requireBillAccess(db, auth, statementId);
  const bill = db.prepare(`${BILL_SELECT} WHERE s.id = ?`).get(id) as BillRow;
  return { bill, building: requireBuilding(db, auth, building_id) };
}

const listQuery = z.object({
  min_date: isoDate.optional(),
  max_date: isoDate.optional(),
  account_id: z.coerce.number().int().positive("must be a positive integer").optional(),
});

const patchBody = z.object({ status: z.enum(BILL_FLAG_STATUSES) });

const outcomeBody = z.object({
  outcome: z.enum(FLAG_OUTCOMES),
  credit_cents: z.number().int().nullish(),
  note: z
    .string()
    .trim()
    .min(1, "Write a note for the client")
    .max(2000, "Keep the note under 2,000 characters"),
});

const money = (cents: number) =>
  `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A one-page PDF of the bill statement (pdfkit): header, account, service period, usage and charges. */
export function billPdf(bill: BillStatementRow, building: BuildingRow, demo = false): Promise<Buffer> {
  // In demo mode the utility and the account number are stand-ins too, the same ones the pages show.
  const utilityName = demo ? demoUtilityName(bill.utility_name) : bill.utility_name;
  const accountNumber = demo ? demoAccountNumber(bill.account_number) : bill.account_number;
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "LETTER",
      margin: 54,
      info: { Title: `Bill statement ${bill.id}`, Author: utilityName },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.fontSize(20).text(utilityName);
    doc.moveDown(0.2).fontSize(11).fillColor("#555").text("Electric service statement");
    doc.moveDown(1).fillColor("#000").fontSize(11);
    const line = (label: string, value: string) => {
      doc.font("Helvetica-Bold").text(`${label}: `, { continued: true }).font("Helvetica").text(value);
    };
    line("Statement date", bill.statement_date);
    line("Account number", accountNumber);
    // In demo mode the PDF carries the building's demo address, like every page and CSV.
    line("Service address", demo ? demoAddressLine(building.id) : buildingAddress(building));
    line("Service period", `${bill.service_start_date} to ${bill.service_end_date}`);
    line(
      "Supplier",
      bill.supplier === null ? utilityName : demo ? demoUtilityName(bill.supplier) : bill.supplier,
    );
    doc.moveDown(1).fontSize(14).font("Helvetica-Bold").text("Usage and charges");
    doc.moveDown(0.5).fontSize(11).font("Helvetica");
    line("Consumption", `${bill.consumption_kwh.toLocaleString("en-US")} kWh`);
    line("Demand", bill.demand_kw === null ? "not metered" : `${bill.demand_kw} kW`);
    line("Rate", `$${(bill.rate_cents / 100).toFixed(4)} per kWh`);
    line("Electric charges", money(bill.total_electric_charges_cents));
    line("Taxes and fees", money(bill.total_charges_cents - bill.total_electric_charges_cents));
    doc
      .moveDown(0.5)
      .fontSize(13)
      .font("Helvetica-Bold")
      .text(`Total amount due: ${money(bill.total_charges_cents)}`);
    doc
      .moveDown(2)
      .fontSize(9)
      .font("Helvetica")
      .fillColor("#555")
      .text(`Statement ${bill.id}. Generated by the EnergyOps reference api.`);
    doc.end();
  });
}

/** Bill statements, bill-flag answers and bill downloads (docs/api-contract.md, docs/api/bills.md). */
export function billRoutes(deps: ApiDeps) {
  const { r, db } = sessionRouter(deps, ["/building/:buildingId/bill-statements", "/bill-statement"]);

  r.get(
    "/building/:buildingId/bill-statements",
    buildingRoute(db, (building, req, res) => {
      const q = parse(listQuery, req.query, "query");
      if (q.min_date && q.max_date && q.min_date > q.max_date) {
        throw validationError({ query: [{ location: "min_date", message: "must not be after max_date" }] });
      }
      if (q.account_id !== undefined) {
        const account = db
          .prepare("SELECT id FROM utility_accounts WHERE id = ? AND building_id = ?")
          .get(q.account_id, building.id);
        if (!account)
          throw validationError({
            query: [{ location: "account_id", message: "is not an account of this building" }],
          });
      }
      const where = ["s.building_id = ?"];
      const args: unknown[] = [building.id];
      const add = (sql: string, value: unknown) => {
        where.push(sql);
        args.push(value);
      };
      if (q.min_date) add("s.statement_date >= ?", q.min_date);
      if (q.max_date) add("s.statement_date <= ?", q.max_date);
      if (q.account_id !== undefined) add("s.account_id = ?", q.account_id);
      const bills = db
        .prepare(`${BILL_SELECT} WHERE ${where.join(" AND ")} ORDER BY s.statement_date DESC, s.id DESC`)
        .all(...args) as BillRow[];
      const flags = bills.length
        ? (db
            .prepare(
              `SELECT * FROM bill_flags WHERE bill_statement_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
            )
            .all(JSON.stringify(bills.map((b) => b.id))) as FlagRow[])
        : [];
      const byBill = new Map<number, FlagRow[]>();
      for (const f of flags) byBill.set(f.bill_statement_id, [...(byBill.get(f.bill_statement_id) ?? []), f]);
      const reader = readerOf(
        db,
        getAuth(res),
        flags.map((f) => f.id),
      );
      res.json({ items: bills.map((b) => billJson(b, building, byBill.get(b.id) ?? [], reader)) });
    }),
  );

  r.patch(
    "/bill-statement/:statementId/bill-flag/:flagId",
    route((req, res) => {
      const { bill } = requireBill(db, getAuth(res), req.params.statementId);
      const flag = db
        .prepare("SELECT * FROM bill_flags WHERE id = ? AND bill_statement_id = ?")
        .get(pathId(req.params.flagId), bill.id) as FlagRow | undefined;
      if (!flag) throw notFound();
      const { status } = parse(patchBody, req.body, "body");
      if (status !== "dismissed" && status !== "action_requested") {
        throw validationError({
          body: [{ location: "status", message: "must be dismissed or action_requested" }],
        });
      }
      const auth = getAuth(res);
      // The shared rule decides (rule flag-answer-history): the status and the history row are written together.
      const { decision, onRecord } = db.transaction(() =>
        recordFlagAnswer(db, flag, auth.user.id, status, "app"),
      )();
      if (decision === "limit")
        throw new HttpError(409, {
          message: FLAG_ANSWER_LIMIT_REACHED,
          error: "answer_limit",
          status: flag.status,
        });
      if (decision !== "record" && !(decision === "already" && onRecord?.user_id === auth.user.id)) {
        throw new HttpError(409, {
          message:
            flag.status === "completed"
              ? "This bill issue is resolved and can no longer be answered."
              : "This bill issue has already been answered.",
          status: flag.status,
        });
      }
      const row = db.prepare("SELECT * FROM bill_flags WHERE id = ?").get(flag.id) as FlagRow;
      res.json(flagJson(row, readerOf(db, auth, [flag.id])));
    }),
  );

  // Staff, on the client's account, close an investigation (rule flag-outcome): the flag becomes completed and the
  // people who get that client's Bill Audit Alerts for the location get one email with the outcome.
  r.post(
    "/bill-statement/:statementId/bill-flag/:flagId/outcome",
    asyncRoute(async (req, res) => {
      const auth = getAuth(res);
      requireStaffAuth(auth);
      const { bill } = requireBill(db, auth, req.params.statementId);
      const flag = db
        .prepare("SELECT * FROM bill_flags WHERE id = ? AND bill_statement_id = ?")
        .get(pathId(req.params.flagId), bill.id) as FlagRow | undefined;
      if (!flag) throw notFound();
      const body = parse(outcomeBody, req.body, "body");
      const creditCents = body.credit_cents ?? null;
      const problem = outcomeProblem(body.outcome, creditCents);
      if (problem) throw validationError({ body: [{ location: "credit_cents", message: problem }] });
      const outcome = { outcome: body.outcome, creditCents, note: body.note };
      const closedAt = clock.nowIso();
      // The emails are rendered first (asynchronous), then written in the close's own transaction: a close that
      // rolls back sends nothing, and one that commits has its emails.
      const emails = await prepareFlagOutcome(deps, flag.id, {
        ...outcome,
        by: `${auth.user.first_name} ${auth.user.last_name}`.trim(),
        closedAt,
      });
      const closed = db.transaction(() => {
        if (!closeFlag(db, flag.id, auth.user.id, outcome, closedAt)) return false;
        emails.write();
        return true;
      })();
      if (!closed) {
        const now = db.prepare("SELECT status FROM bill_flags WHERE id = ?").get(flag.id) as {
          status: string;
        };
        throw new HttpError(409, {
          message: "This bill issue is not under investigation and cannot be closed.",
          status: now.status,
        });
      }
      const row = db.prepare("SELECT * FROM bill_flags WHERE id = ?").get(flag.id) as FlagRow;
      res.json(flagJson(row, readerOf(db, auth, [flag.id])));
    }),
  );

  r.get(
    "/bill-statement/:statementId/download",
    asyncRoute(async (req, res) => {
      const auth = getAuth(res);
      const { bill, building } = requireBill(db, auth, req.params.statementId);
      const pdf = await billPdf(bill, building, auth.session.is_demo_mode === 1);
      res.setHeader("Content-Type", "application/pdf");
      res.setHeader(
        "Content-Disposition",
        `attachment; filename="bill-${bill.statement_date}-${bill.id}.pdf"`,
      );
      res.setHeader("Content-Length", String(pdf.length));
      res.end(pdf);
    }),
  );

  return r;
}
