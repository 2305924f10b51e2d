import { Form, Link } from "@remix-run/react";
import { SortableHeader, ariaSortOf } from "~/ui/sortable-header";
import { EmptyState, ErrorState } from "~/ui/states";
import {
  COLUMNS,
  FINDINGS_EMPTY,
  FINDINGS_ERROR,
  findingsQuery,
  type LedgerRow,
  nextSort,
  PERIOD_KEYS,
  PERIOD_LABELS,
  type Period,
  SORT_KEYS,
  type SortDir,
  type SortKey,
} from "../ledger-view";

type Totals = { count: number; open: number; stake: string; recovered: string };
type LocationTotals = Totals & { id: number; name: string };

export function FindingsLedger(props: {
  error: boolean;
  search: string;
  headline: string;
  period: Period;
  sort: { sort: SortKey; dir: SortDir };
  rows: LedgerRow[];
  totals: { locations: LocationTotals[]; client: Totals };
  /** The totals' last row: "All locations", or "Your 5 locations" for a person limited to some. */
  allLabel: string;
  /** The printed sheet's title: "Harbor Coffee Co. · Findings, Nov 1 – Nov 30, 2026" (`printTitle`). */
  printTitle: string;
}) {
  const { error, search, headline, period, sort, rows, totals, allLabel, printTitle } = props;
  const params = new URLSearchParams(search);
  return (
    <div className="stack findings-page">
      <h1>Findings</h1>
      {/* Paper only (findings.css): whose findings and which period, above the rows. */}
      <p className="findings-print-title" data-testid="findings-print-title">
        {printTitle}
      </p>
      {error ? null : (
        <p className="findings-headline" data-testid="findings-headline">
          {headline}
        </p>
      )}
      <PeriodForm period={period} sort={sort} search={search} />
      {error ? (
        <ErrorState title={FINDINGS_ERROR} />
      ) : (
        <>
          <div className="row findings-tools no-print">
            <p className="spacer muted" data-testid="findings-count">
              {rows.length === 1 ? "1 finding" : `${rows.length} findings`}, {period.label}
            </p>
            <a className="btn btn-small" href={`/findings.csv${findingsQuery(params, {})}`} download>
              Download CSV
            </a>
          </div>
          {rows.length === 0 ? (
            <EmptyState title={FINDINGS_EMPTY} />
          ) : (
            <div className="card table-wrap findings-wrap">
              <table className="table findings-table" data-testid="findings-table">
                <caption className="visually-hidden">Findings, {period.label}</caption>
                <thead>
                  <tr>
                    {COLUMNS.map((c) =>
                      (SORT_KEYS as readonly string[]).includes(c.key) ? (
                        <SortableHeader
                          key={c.key}
                          label={c.label}
                          sort={ariaSortOf(sort.sort === c.key, sort.dir)}
                          href={`/findings${findingsQuery(params, nextSort(sort, c.key as SortKey))}`}
                        />
                      ) : (
                        <th key={c.key} scope="col">
                          {c.label}
                        </th>
                      ),
                    )}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.key} data-testid="finding-row" className={r.open ? "is-open" : undefined}>
                      {COLUMNS.map((c) => (
                        <td key={c.key} data-label={c.label} className={`col-${c.key}`}>
                          {c.key === "bill" ? <Link to={r.href}>{r.cells.bill}</Link> : r.cells[c.key]}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <TotalsTable period={period} totals={totals} allLabel={allLabel} />
        </>
      )}
    </div>
  );
}

function PeriodForm({
  period,
  sort,
  search,
}: {
  period: Period;
  sort: { sort: SortKey; dir: SortDir };
  search: string;
}) {
  const errorId = "findings-range-error";
  return (
    <Form method="get" className="card findings-period no-print" key={search} aria-label="Findings period">
      <input type="hidden" name="sort" value={sort.sort} />
      <input type="hidden" name="dir" value={sort.dir} />
      <div className="field">
        <label htmlFor="findings-period">Period</label>
        <select id="findings-period" name="period" className="input" defaultValue={period.key}>
          {PERIOD_KEYS.map((k) => (
            <option key={k} value={k}>
              {PERIOD_LABELS[k]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="findings-from">From</label>
        <input
          id="findings-from"
          name="from"
          type="date"
          className="input"
          defaultValue={period.fromInput}
          aria-invalid={period.error ? true : undefined}
          aria-describedby={period.error ? errorId : undefined}
        />
      </div>
      <div className="field">
        <label htmlFor="findings-to">To</label>
        <input
          id="findings-to"
          name="to"
          type="date"
          className="input"
          defaultValue={period.toInput}
          aria-invalid={period.error ? true : undefined}
          aria-describedby={period.error ? errorId : undefined}
        />
      </div>
      <button type="submit" className="btn">
        Show
      </button>
      <p className="muted findings-hint">From and To apply to a chosen range.</p>
      {period.error ? (
        <p id={errorId} className="field-error" role="alert">
          {period.error} Showing this year.
        </p>
      ) : null}
    </Form>
  );
}

function TotalsTable({
  period,
  totals,
  allLabel,
}: {
  period: Period;
  totals: { locations: LocationTotals[]; client: Totals };
  allLabel: string;
}) {
  return (
    <section className="card findings-totals" aria-labelledby="findings-totals-title">
      <h2 id="findings-totals-title">Totals, {period.label}</h2>
      <div className="table-wrap">
        <table className="table totals-table" data-testid="findings-totals">
          <thead>
            <tr>
              <th scope="col">Location</th>
              <th scope="col">Findings</th>
              <th scope="col">Open</th>
              <th scope="col">At stake</th>
              <th scope="col">Recovered</th>
            </tr>
          </thead>
          <tbody>
            {totals.locations.map((l) => (
              <tr key={l.id}>
                <th scope="row">{l.name}</th>
                <td data-label="Findings">{l.count}</td>
                <td data-label="Open">{l.open}</td>
                <td data-label="At stake">{l.stake}</td>
                <td data-label="Recovered">{l.recovered}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr data-testid="findings-client-total">
              <th scope="row">{allLabel}</th>
              <td data-label="Findings">{totals.client.count}</td>
              <td data-label="Open">{totals.client.open}</td>
              <td data-label="At stake">{totals.client.stake}</td>
              <td data-label="Recovered">{totals.client.recovered}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
