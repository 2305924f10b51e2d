import { stringify } from "csv-stringify/sync";

/** A cell: text as it is; numbers stay numbers (see below); null and undefined are empty. */
export type CsvCell = string | number | null | undefined;

/** A plain decimal number written as text (`-12.50`, `3`): a spreadsheet reads it as that number, never a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** What a spreadsheet may take as the start of a formula (OWASP "CSV Injection"), with the full-width forms. */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A text cell that could start a formula gets a leading `'`, so spreadsheets show it as text. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * The product's one CSV writer, used by every download: usage, the spending chart, the thermostat history and
 * the reference api's bill-statement export (hence `shared/`, which imports nothing of
 * `app/` or `api/`: ADR 0020). Quoting is `csv-stringify` (node-csv, maintained); the formula
 * rule is ours, in `cast`, because the library's `escape_formulas` would also turn a formatted negative amount
 * (`"-12.50"`) into text:
 * - RFC 4180: CRLF between records and after the last; a field with `"`, `,`, `\r` or `\n` is quoted and its
 *   `"` doubled. `quote_record_delimiter` is set explicitly: with a custom record delimiter the library would
 *   otherwise leave a lone `\r` or `\n` unquoted.
 * - Formula injection: a text cell starting with `=`, `+`, `-`, `@`, tab or CR (or their full-width forms) gets a
 *   leading `'`.
 * - Decision: numbers stay numbers. A JS number is written as is (`-3.5`), and so is text that is exactly a
 *   plain decimal number (`-12.50`): neither can be a formula, and a spreadsheet can still sum them. Text like
 *   `-2+3` or `-A1` is neutralised. Non-finite numbers are written empty.
 */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return stringify(rows as CsvCell[][], {
    record_delimiter: "\r\n",
    quote_record_delimiter: true,
    eof: true,
    cast: {
      string: neutraliseFormula,
      number: (n) => (Number.isFinite(n) ? String(n) : ""),
    },
  });
}
