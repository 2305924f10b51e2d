import { toCsv, type CsvCell } from "../../shared/csv";

/** A CSV download: the rows through `toCsv`, saved as `filename`, never cached (it holds the user's data). */
export function csvDownload(rows: readonly (readonly CsvCell[])[], filename: string): Response {
  return new Response(toCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
