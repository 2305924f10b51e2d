import { Form, useSubmit } from "@remix-run/react";
import { useTooltip } from "@visx/tooltip";
import { useMemo, type MouseEvent } from "react";
import { PlotFrame, PlotTooltip, type AxisTick } from "~/ui/plot-frame";
import { useHydrated } from "~/ui/use-hydrated";
import { formatF, formatFullTime, MODE_LABELS, SERIES, type ChartOptions } from "../compliance";
import {
  areaPath,
  decodeHistory,
  dotsPath,
  formatRange,
  linePath,
  nearestIndex,
  stepSegments,
  type HistoryChart,
} from "../history-chart";

/** The plot's own coordinates; the SVG stretches them to the width of the page (PlotFrame). */
const W = 1000;
const H = 300;
const MODE_COLORS: Record<string, string> = {
  cool: "#dbeafe",
  heat: "#fee2e2",
  auto: "#ede9fe",
  off: "#e5e7eb",
  ventilation: "#ecfccb",
  dehumidifier: "#cffafe",
  emergencyheat: "#fed7aa",
};
/** Day labels: every 3rd day on a wide chart, every 7th on a phone. */
const WIDE_EVERY = 3;
const NARROW_EVERY = 7;

/** The day table scrolls within 24rem on a wide screen: it takes keyboard focus so it can be scrolled (WCAG 2.1.1). */
const SCROLL_REGION_TAB_INDEX = 0;

const r1 = (n: number) => Math.round(n * 10) / 10;

/** x labels of the day (or 6-hour) ticks, thinned differently for wide and narrow charts. */
function xAxis(ticks: HistoryChart["xTicks"], totalMin: number): AxisTick[] {
  const out: AxisTick[] = [];
  ticks.forEach((tick, i) => {
    const wide = i % WIDE_EVERY === 0;
    const narrow = i % NARROW_EVERY === 0;
    if (!wide && !narrow) return;
    out.push({
      at: tick.at / totalMin,
      label: tick.label,
      ...(wide && narrow ? {} : { only: wide ? ("wide" as const) : ("narrow" as const) }),
    });
  });
  return out;
}

/**
 * One thermostat's month: each shown series as one stepped path over the compact history (history-chart.ts),
 * fitted to the width of the page with both axes in view. With JavaScript a tooltip reads the reading nearest
 * the pointer; without it, each day is a hover target whose title gives the day's lows and highs. The text
 * alternative is the per-day table; every reading is in the CSV.
 */
export function ThermostatChart({
  chart,
  options,
  keep,
  helpUrl,
  csvHref,
}: {
  chart: HistoryChart;
  options: ChartOptions;
  keep: [string, string][];
  helpUrl: string;
  /** The resource route that answers the plotted series as CSV. */
  csvHref: string;
}) {
  const { days, timezone, startMs, endMs } = chart;
  const { t, series } = useMemo(() => decodeHistory(chart), [chart]);
  const hydrated = useHydrated();
  const submit = useSubmit();
  const { tooltipOpen, tooltipLeft, tooltipTop, tooltipData, showTooltip, hideTooltip } =
    useTooltip<number>();
  const totalMin = Math.max(1, (endMs - startMs) / 60_000);
  const x = (minute: number) => (minute / totalMin) * W;
  const [lo, hi] = chart.yDomain;
  const y = (v: number) => H - ((v - lo) / (hi - lo || 1)) * H;
  const yStep = (hi - lo) / 5 > 8 ? 10 : 5;
  const yTicks: number[] = [];
  for (let v = lo; v <= hi; v += yStep) yTicks.push(v);
  const meta = (key: string) => SERIES.find((s) => s.key === key)!;
  const paths = useMemo(
    () =>
      series.map((s) => {
        const segs = stepSegments(t, s.values, x, y);
        return { key: s.key, line: linePath(segs), area: s.key === "schedule" ? areaPath(segs, H) : null };
      }),
    // x and y follow from the chart itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [chart],
  );

  const onMove = (e: MouseEvent<SVGRectElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    if (!rect.width) return;
    const i = nearestIndex(t, ((e.clientX - rect.left) / rect.width) * totalMin);
    if (i < 0) return;
    showTooltip({ tooltipData: i, tooltipLeft: e.clientX - rect.left, tooltipTop: e.clientY - rect.top });
  };

  const dayTitle = (di: number) =>
    [
      days[di].label,
      ...series.map((s, si) => `${meta(s.key).label}: ${formatRange(days[di].ranges[si])}`),
    ].join("\n");
  const seriesNames = series.map((s) => meta(s.key).label).join(", ") || "no series selected";

  return (
    <section className="card stack" aria-labelledby="chart-title">
      <h2 id="chart-title">Thermostat Settings</h2>
      <p className="muted" id="chart-desc">
        Setpoints and indoor temperature against the recommended schedule, in the building&apos;s local time.{" "}
        <a href={helpUrl} target="_blank" rel="noreferrer">
          How to read this chart
        </a>
      </p>
      <Form
        method="get"
        replace
        preventScrollReset
        className="chart-options"
        onChange={(e) => submit(e.currentTarget, { replace: true, preventScrollReset: true })}
      >
        {keep.map(([k, v], i) => (
          <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
        ))}
        <input type="hidden" name="chart" value="1" />
        <fieldset className="row series-toggles">
          <legend className="visually-hidden">Series</legend>
          {SERIES.map((s) => (
            <label key={s.key} className="checkbox series-toggle">
              <input
                type="checkbox"
                name="show"
                value={s.key}
                defaultChecked={options.visible.includes(s.key)}
              />
              <span className={`swatch swatch-${s.key}`} aria-hidden="true" />
              {s.label}
            </label>
          ))}
        </fieldset>
        <div className="row">
          <label htmlFor="plot-bands">Plot bands</label>
          <select id="plot-bands" name="plotBands" className="select" defaultValue={options.plotBands}>
            <option value="none">None</option>
            <option value="mode">Mode</option>
          </select>
          <label className="checkbox">
            <input type="checkbox" name="showMarker" value="true" defaultChecked={options.showMarker} /> Show
            markers
          </label>
          {hydrated ? null : (
            <button type="submit" className="btn btn-secondary btn-small">
              Update chart
            </button>
          )}
        </div>
      </Form>
      <div className="chart-frame" data-testid="thermostat-chart">
        <PlotFrame
          className="thermostat-plot"
          left={{
            title: "°Fahrenheit",
            ticks: yTicks.map((v) => ({ at: (v - lo) / (hi - lo || 1), label: String(v) })),
          }}
          bottom={xAxis(chart.xTicks, totalMin)}
          overlay={
            hydrated && tooltipOpen && tooltipData !== undefined && t[tooltipData] !== undefined ? (
              <PlotTooltip
                left={tooltipLeft ?? 0}
                top={tooltipTop ?? 0}
                className="chart-tooltip"
                testId="chart-tooltip"
              >
                <strong>{formatFullTime(startMs + t[tooltipData] * 60_000, timezone)}</strong>
                {series.map((s) => (
                  <div key={s.key}>
                    <span className={`swatch swatch-${s.key}`} aria-hidden="true" /> {meta(s.key).label}:{" "}
                    {formatF(s.values[tooltipData])}
                  </div>
                ))}
              </PlotTooltip>
            ) : null
          }
        >
          <svg
            viewBox={`0 0 ${W} ${H}`}
            preserveAspectRatio="none"
            role="img"
            aria-labelledby="chart-svg-title"
            aria-describedby="chart-desc"
          >
            <title id="chart-svg-title">{`Thermostat Settings: ${seriesNames}, ${days[0]?.label ?? ""} to ${days[days.length - 1]?.label ?? ""}. Each day's lows and highs are listed below the chart; every reading is in the CSV.`}</title>
            {chart.modes.map((r) => (
              <rect
                key={`${r.mode}-${r.from}`}
                x={r1(x(r.from))}
                y={0}
                width={r1(Math.max(0.5, x(r.to) - x(r.from)))}
                height={H}
                fill={Object.hasOwn(MODE_COLORS, r.mode) ? MODE_COLORS[r.mode] : "#f3f4f6"}
                data-testid="mode-band"
              >
                <title>{`Mode: ${Object.hasOwn(MODE_LABELS, r.mode) ? MODE_LABELS[r.mode] : r.mode}`}</title>
              </rect>
            ))}
            <path d={yTicks.map((v) => `M0 ${r1(y(v))}H${W}`).join("")} stroke="#e5e9ee" fill="none" />
            <path
              d={chart.xTicks.map((tick) => `M${r1(x(tick.at))} 0V${H}`).join("")}
              stroke="#f0f2f5"
              fill="none"
            />
            {paths.map((p) => {
              const s = meta(p.key);
              return (
                <g key={p.key} data-testid={`series-${p.key}`}>
                  {p.area ? <path d={p.area} fill={s.color} fillOpacity={0.18} stroke="none" /> : null}
                  <path
                    className="plot-line"
                    d={p.line}
                    stroke={s.color}
                    strokeWidth={p.key === "indoor" ? 1.5 : 2}
                    strokeDasharray={p.key === "indoor" ? "6 4" : undefined}
                  />
                </g>
              );
            })}
            {options.showMarker
              ? series.map((s) => (
                  <path
                    key={s.key}
                    className="plot-dots"
                    d={dotsPath(t, s.values, x, y)}
                    stroke={meta(s.key).color}
                    strokeWidth={5}
                    data-testid="marker"
                  />
                ))
              : null}
            <path d={`M0 0V${H}H${W}`} fill="none" stroke="#9aa5b1" />
            {hydrated ? (
              <>
                {tooltipOpen && tooltipData !== undefined && t[tooltipData] !== undefined ? (
                  <line
                    x1={r1(x(t[tooltipData]))}
                    x2={r1(x(t[tooltipData]))}
                    y1={0}
                    y2={H}
                    stroke="#16212b"
                    strokeDasharray="3 3"
                    pointerEvents="none"
                  />
                ) : null}
                <rect
                  width={W}
                  height={H}
                  fill="transparent"
                  onMouseMove={onMove}
                  onMouseLeave={hideTooltip}
                  data-testid="chart-overlay"
                />
              </>
            ) : (
              days.map((d, di) => (
                <rect
                  key={d.date}
                  className="tip-rect"
                  x={r1(x(d.from))}
                  y={0}
                  width={r1(x(d.to) - x(d.from))}
                  height={H}
                  fill="transparent"
                >
                  <title>{dayTitle(di)}</title>
                </rect>
              ))
            )}
          </svg>
        </PlotFrame>
      </div>
      <div className="row">
        <a className="btn btn-secondary btn-small" download href={csvHref} data-testid="csv-download">
          Download CSV
        </a>
        <span className="muted">Every 30-minute reading, for spreadsheets.</span>
      </div>
      <details className="chart-data">
        <summary>Data table: each day&apos;s lows and highs</summary>
        <div
          className="table-wrap table-cards chart-data-table"
          role="region"
          tabIndex={SCROLL_REGION_TAB_INDEX}
          aria-label="Thermostat Settings data"
        >
          <table className="table table-compact" data-testid="chart-data-table">
            <caption className="visually-hidden">
              Thermostat Settings: each day&apos;s lowest and highest reading in °F
            </caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map((s) => (
                  <th key={s.key} scope="col" className="num">
                    {meta(s.key).label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{d.label}</th>
                  {series.map((s, si) => (
                    <td key={s.key} className="num" data-label={meta(s.key).label}>
                      {formatRange(d.ranges[si])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
