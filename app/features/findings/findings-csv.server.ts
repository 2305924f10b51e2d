import type { LoaderFunctionArgs } from "@remix-run/node";
import { csvDownload } from "~/server/csv";
import { csvRows } from "./findings";
import { loadLedger } from "./findings.server";

/** /findings.csv with the page's query: exactly the rows and columns the page shows, through the one CSV writer. */
export async function findingsCsvLoader(args: LoaderFunctionArgs) {
  const { answer, ledger } = await loadLedger(args);
  if (!answer.ok)
    return new Response("Unable to fetch findings. Please try again.", {
      status: 502,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  return csvDownload(
    csvRows(ledger.rows.map((row) => ({ row }))),
    `findings-${ledger.period.from}-${ledger.period.to}.csv`,
  );
}
