import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { DispatchTable, DispatchTableSkeleton } from "~/features/grid-services/components/dispatch-table";
import styles from "~/features/grid-services/grid-services.css";
import {
  GRID_EMPTY,
  GRID_ERROR,
  GRID_PAGE_SIZE,
  gridSearch,
  GRID_PERIOD_KEYS,
  GRID_PERIOD_LABELS,
  pageCount,
  sortToParam,
  DEFAULT_SORT,
} from "~/features/grid-services/grid-services";
import { EmptyState, ErrorState } from "~/ui/states";
import { withQuery } from "~/lib/query";
import { formatCalendarDate } from "~/lib/dates";
import { SubmitButton } from "~/ui/pending";
import { gridServicesAction, gridServicesLoader } from "~/features/grid-services/grid-services.server";

export const handle = { stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = gridServicesLoader;

export const action = gridServicesAction;

/** Everything but the expanded rows: a change there is worth a skeleton. */
const listKey = (search: string) => withQuery(search, { open: null });

export default function GridServices() {
  const { state, range, periodKey, error, rows, total, headline, programNote, optedId } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname === "/grid-services" &&
    listKey(navigation.location.search) !== listKey(location.search);
  const pages = pageCount(total);
  const isDefaultSort = state.sort.map(sortToParam).join() === DEFAULT_SORT.map(sortToParam).join();
  return (
    <div className="stack grid-page">
      <h1>Grid Services</h1>
      {headline ? (
        <p className="grid-headline" data-testid="grid-headline">
          {headline}
        </p>
      ) : null}
      {programNote ? (
        <p className="muted grid-program" data-testid="grid-program">
          {programNote}
        </p>
      ) : null}
      <p className="muted">
        {`Events from ${formatCalendarDate(range.startDate)} to ${formatCalendarDate(range.endDate)}`}
      </p>
      <Form
        method="get"
        role="search"
        className="grid-search no-print"
        key={`${state.q} ${periodKey} ${range.startDate} ${range.endDate}`}
      >
        <div className="row grid-period">
          <div className="field">
            <label htmlFor="grid-period">Period</label>
            <select id="grid-period" name="period" className="input" defaultValue={periodKey}>
              {GRID_PERIOD_KEYS.map((k) => (
                <option key={k} value={k}>
                  {GRID_PERIOD_LABELS[k]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="grid-from">From</label>
            <input
              id="grid-from"
              name="from"
              type="date"
              className="input"
              defaultValue={state.rangeError?.from ?? range.startDate}
              aria-invalid={state.rangeError ? true : undefined}
              aria-describedby={state.rangeError ? "grid-range-error" : undefined}
            />
          </div>
          <div className="field">
            <label htmlFor="grid-to">To</label>
            <input
              id="grid-to"
              name="to"
              type="date"
              className="input"
              defaultValue={state.rangeError?.to ?? range.endDate}
              aria-invalid={state.rangeError ? true : undefined}
              aria-describedby={state.rangeError ? "grid-range-error" : undefined}
            />
          </div>
        </div>
        {state.rangeError ? (
          <p className="field-error" id="grid-range-error" role="alert">
            {`${state.rangeError.message} This season is shown.`}
          </p>
        ) : null}
        <label htmlFor="grid-q">Search locations</label>
        <div className="row">
          <input
            id="grid-q"
            name="q"
            type="search"
            className="input"
            defaultValue={state.q}
            maxLength={100}
            placeholder="Address or city"
          />
          {isDefaultSort
            ? null
            : state.sort.map((s) => <input key={s.field} type="hidden" name="sort" value={sortToParam(s)} />)}
          <SubmitButton className="btn">SUBMIT</SubmitButton>
        </div>
      </Form>
      {loading ? (
        <DispatchTableSkeleton />
      ) : error ? (
        <ErrorState title={GRID_ERROR} />
      ) : rows.length === 0 ? (
        <EmptyState title={GRID_EMPTY} />
      ) : (
        <>
          <DispatchTable
            rows={rows}
            state={state}
            optOut={{ doneId: optedId, error: actionData?.optOut ?? null }}
          />
          <p className="row no-print">
            <a
              className="btn btn-secondary btn-small"
              download
              href={`/grid-services/csv${gridSearch({ ...state, page: 1, open: [] })}`}
              data-testid="grid-csv"
            >
              Download CSV
            </a>
            <span className="muted">{`All ${total} events of the search, with their figures, for spreadsheets.`}</span>
          </p>
          <nav className="pager no-print" aria-label="Pagination">
            {state.page > 1 ? (
              <Link
                to={gridSearch({ ...state, page: state.page - 1, open: [] })}
                rel="prev"
                className="btn btn-secondary btn-small"
              >
                Previous
              </Link>
            ) : (
              <span className="btn btn-secondary btn-small" aria-disabled="true">
                Previous
              </span>
            )}{" "}
            <span data-testid="page-status">
              {`Page ${Math.min(state.page, pages)} of ${pages} · ${total} events (${GRID_PAGE_SIZE} per page)`}
            </span>{" "}
            {state.page < pages ? (
              <Link
                to={gridSearch({ ...state, page: state.page + 1, open: [] })}
                rel="next"
                className="btn btn-secondary btn-small"
              >
                Next
              </Link>
            ) : (
              <span className="btn btn-secondary btn-small" aria-disabled="true">
                Next
              </span>
            )}
          </nav>
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Grid Services · EnergyOps" }];
