// Writes public/sample-bill.pdf, the bill PDF shown in demo mode (app/server/upstream/passthrough.server.ts, demoFile):
// the api's own bill layout with demo values only, so no real client, person or address is in it.
// Run: npx tsx scripts/sample-bill.ts
import { writeFileSync } from "node:fs";
import { billPdf } from "../api/routes/bills";

type Bill = Parameters<typeof billPdf>[0];
type Building = Parameters<typeof billPdf>[1];

const bill: Bill = {
  id: 1,
  building_id: 101,
  account_id: 1,
  account_number: "0000-0000-00",
  utility_id: 1,
  utility_name: "Demo Utility",
  statement_date: "2026-01-15",
  service_start_date: "2025-12-12",
  service_end_date: "2026-01-11",
  consumption_kwh: 12000,
  demand_kw: 42,
  rate_cents: 14,
  total_charges_cents: 198000,
  total_electric_charges_cents: 176000,
  supplier: "Demo Supplier",
};
// Only the id matters in demo mode: the address printed is the building's demo address.
const building = { id: 101 } as Building;

writeFileSync(new URL("../public/sample-bill.pdf", import.meta.url), await billPdf(bill, building, true));
