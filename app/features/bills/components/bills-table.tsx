import { PRODUCT_NAME } from "~/ui/brand";
import { billDownloadHref, formatMoney, formatNumber, formatRate, formatRange, visibleFlags } from "../bills";
import { FlagBanner, type FlagBannerFlag, type FlagFormError } from "./flag-banner";
import { formatCalendarDate } from "~/lib/dates";

type Bill = {
  id: number;
  statementDate: string;
  serviceStartDate: string;
  serviceEndDate: string;
  consumption: number | null;
  demand: number | null;
  rate: number | null;
  totalCharges: number | null;
  supplier?: string | null;
  utility?: { name: string } | null;
  flags: FlagBannerFlag[];
};

const COLUMNS = 8;

/** Your Bills: one row per bill, newest first, with its flag banner in a full-width row below it. */
export function BillsTable({
  bills,
  error,
  submissionId,
  targetBillId = null,
}: {
  bills: Bill[];
  /** The bill an alert's link names (`billId`): its row is marked. */
  targetBillId?: number | null;
  error?: FlagFormError | null;
  /** For the flag answer forms (ADR 0010). */
  submissionId: string;
}) {
  // The wrapper scrolls sideways on narrow screens: it takes keyboard focus so keyboard users can scroll it.
  const scrollFocus = 0;
  return (
    <div
      className="table-wrap bills-table-wrap"
      role="region"
      aria-label="Your Bills table"
      tabIndex={scrollFocus}
    >
      <table className="table bills-table">
        <caption className="visually-hidden">Your Bills</caption>
        <thead>
          <tr>
            <th scope="col">Statement date</th>
            <th scope="col">Service period</th>
            <th scope="col" className="num">
              Consumption (kWh)
            </th>
            <th scope="col" className="num">
              Demand (kW)
            </th>
            <th scope="col" className="num">
              Rate ($/kWh)
            </th>
            <th scope="col" className="num">
              Total charges
            </th>
            <th scope="col">Supplier</th>
            <th scope="col">Bill</th>
          </tr>
        </thead>
        <tbody>
          {bills.map((b) => {
            const flags = visibleFlags(b.flags, b.supplier, PRODUCT_NAME);
            const supplier = b.supplier ?? b.utility?.name ?? null;
            return [
              <tr
                key={b.id}
                data-testid={`bill-${b.id}`}
                className={
                  [flags.length ? "has-flags" : "", b.id === targetBillId ? "is-target" : ""]
                    .join(" ")
                    .trim() || undefined
                }
                aria-current={b.id === targetBillId ? "true" : undefined}
              >
                <th scope="row">{formatCalendarDate(b.statementDate)}</th>
                <td data-label="Service period" className="period">
                  {formatRange(b.serviceStartDate, b.serviceEndDate)}
                </td>
                <td className="num" data-label="Consumption (kWh)">
                  {formatNumber(b.consumption)}
                </td>
                <td className="num" data-label="Demand (kW)">
                  {formatNumber(b.demand, 1)}
                </td>
                <td className="num" data-label="Rate ($/kWh)">
                  {formatRate(b.rate, false)}
                </td>
                <td className="num" data-label="Total charges">
                  {formatMoney(b.totalCharges)}
                </td>
                <td data-label="Supplier" className="supplier">
                  {supplier ?? "—"}
                </td>
                <td data-label="Bill">
                  <a
                    href={billDownloadHref(b.id)}
                    download
                    aria-label={`Download the bill of ${formatCalendarDate(b.statementDate)} (PDF)`}
                  >
                    Download
                  </a>
                </td>
              </tr>,
              flags.length ? (
                <tr key={`${b.id}-flags`} className="flag-row">
                  <td colSpan={COLUMNS}>
                    <FlagBanner
                      billId={b.id}
                      statementLabel={formatCalendarDate(b.statementDate)}
                      flags={flags}
                      error={error}
                      submissionId={submissionId}
                    />
                  </td>
                </tr>
              ) : null,
            ];
          })}
        </tbody>
      </table>
    </div>
  );
}
