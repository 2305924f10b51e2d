import { Form, useSubmit } from "@remix-run/react";
import { useTooltip } from "@visx/tooltip";
import { useMemo, useRef, type MouseEvent } from "react";
import { PlotTooltip } from "~/ui/plot-frame";
import { useHydrated } from "~/ui/use-hydrated";
import { formatF, formatFullTime, MODE_LABELS, SERIES, type ChartOptions } from "../compliance";
import {
  areaPath,
  CHART_FRAME,
  chartScales,
  decodeHistory,
  dotsPath,
  formatRange,
  linePath,
  nearestIndex,
  PLOT_HEIGHT,
  stepSegments,
  yAxisTicks,
  type HistoryChart,
} from "../history-chart";
import { SubmitButton } from "~/ui/pending";

const { height: H, plotWidth: W, top: TOP, axisWidth: AXIS_W } = CHART_FRAME;
const PLOT_BOTTOM = TOP + PLOT_HEIGHT;
const MODE_COLORS: Record<string, string> = {
  cool: "#dbeafe",
  heat: "#fee2e2",
  auto: "#ede9fe",
  off: "#e5e7eb",
  ventilation: "#ecfccb",
  dehumidifier: "#cffafe",
  emergencyheat: "#fed7aa",
};

/** Scroll regions take keyboard focus so arrow keys scroll them (WCAG 2.1.1). */
const SCROLL_REGION_TAB_INDEX = 0;

const r1 = (n: number) => Math.round(n * 10) / 10;

/**
 * One thermostat's month as the spec draws it: 649 px high, the y axis (°Fahrenheit) in a fixed column of its
 * own and the plot 6,000 px wide in a region that scrolls sideways (by touch, wheel or, once focused, the
 * arrow keys), with a "Scroll for more" cue and a shadow at its edge. Both are server-rendered SVG at their
 * natural size, so the same chart shows with JavaScript off. With JavaScript a tooltip reads the reading
 * nearest the pointer; without it, each day is a hover target whose title gives the day's lows and highs. The
 * text alternative is the per-day table; every reading is in the CSV.
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
  const body = useRef<HTMLDivElement>(null);
  const { tooltipOpen, tooltipLeft, tooltipTop, tooltipData, showTooltip, hideTooltip } =
    useTooltip<number>();
  const totalMin = Math.max(1, (endMs - startMs) / 60_000);
  const { x, y } = chartScales(totalMin, chart.yDomain);
  const yTicks = yAxisTicks(chart.yDomain);
  const meta = (key: string) => SERIES.find((s) => s.key === key)!;
  const paths = useMemo(
    () =>
      series.map((s) => {
        const segs = stepSegments(t, s.values, x, y);
        return {
          key: s.key,
          line: linePath(segs),
          area: s.key === "schedule" ? areaPath(segs, PLOT_BOTTOM) : null,
        };
      }),
    // x and y follow from the chart itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [chart],
  );

  const onMove = (e: MouseEvent<SVGRectElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    if (!rect.width) return;
    const i = nearestIndex(t, ((e.clientX - rect.left) / rect.width) * totalMin);
    const frame = body.current?.getBoundingClientRect();
    if (i < 0 || !frame) return;
    // Placed in the visible frame, not the 6,000 px plot: it stays on screen wherever the plot is scrolled.
    showTooltip({ tooltipData: i, tooltipLeft: e.clientX - frame.left, tooltipTop: e.clientY - frame.top });
  };

  const dayTitle = (di: number) =>
    [
      days[di].label,
      ...series.map((s, si) => `${meta(s.key).label}: ${formatRange(days[di].ranges[si])}`),
    ].join("\n");
  const seriesNames = series.map((s) => meta(s.key).label).join(", ") || "no series selected";
  const spanLabel =
    days.length > 1 ? `${days[0].label} to ${days[days.length - 1].label}` : (days[0]?.label ?? "");

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
            <SubmitButton className="btn btn-secondary btn-small">Update chart</SubmitButton>
          )}
        </div>
      </Form>
      <div className="chart-frame" data-testid="thermostat-chart">
        <p className="chart-scroll-cue muted" aria-hidden="true">
          Scroll for more &rarr;
        </p>
        <div className="tchart" ref={body}>
          <svg
            className="tchart-axis"
            width={AXIS_W}
            height={H}
            viewBox={`0 0 ${AXIS_W} ${H}`}
            aria-hidden="true"
            data-testid="chart-y-axis"
          >
            <text
              className="tchart-axis-title"
              transform={`translate(14 ${TOP + PLOT_HEIGHT / 2}) rotate(-90)`}
              textAnchor="middle"
            >
              °Fahrenheit
            </text>
            {yTicks.map((v) => (
              <text key={v} x={AXIS_W - 8} y={r1(y(v))} textAnchor="end" dominantBaseline="middle">
                {v}
              </text>
            ))}
            <path d={`M${AXIS_W - 0.5} ${TOP}V${PLOT_BOTTOM}`} stroke="#9aa5b1" fill="none" />
          </svg>
          <div
            className="tchart-scroll"
            role="region"
            tabIndex={SCROLL_REGION_TAB_INDEX}
            aria-label="Thermostat Settings plot, scrolls sideways"
            data-testid="chart-scroll"
          >
            <svg
              width={W}
              height={H}
              viewBox={`0 0 ${W} ${H}`}
              // No effect at its own size; on paper (compliance.css) it lets the month fill the page's width.
              preserveAspectRatio="none"
              role="img"
              aria-labelledby="chart-svg-title"
              aria-describedby="chart-desc"
              data-testid="chart-plot"
            >
              <title id="chart-svg-title">{`Thermostat Settings: ${seriesNames}, ${spanLabel}. Each day's lows and highs are listed below the chart; every reading is in the CSV.`}</title>
              {chart.modes.map((r) => (
                <rect
                  key={`${r.mode}-${r.from}`}
                  x={r1(x(r.from))}
                  y={TOP}
                  width={r1(Math.max(0.5, x(r.to) - x(r.from)))}
                  height={PLOT_HEIGHT}
                  fill={Object.hasOwn(MODE_COLORS, r.mode) ? MODE_COLORS[r.mode] : "#f3f4f6"}
                  data-testid="mode-band"
                >
                  <title>{`Mode: ${Object.hasOwn(MODE_LABELS, r.mode) ? MODE_LABELS[r.mode] : r.mode}`}</title>
                </rect>
              ))}
              <path d={yTicks.map((v) => `M0 ${r1(y(v))}H${W}`).join("")} stroke="#e5e9ee" fill="none" />
              <path
                d={chart.xTicks.map((tick) => `M${r1(x(tick.at))} ${TOP}V${PLOT_BOTTOM + 6}`).join("")}
                stroke="#d5dae0"
                fill="none"
              />
              <g aria-hidden="true" className="tchart-x-labels" data-testid="chart-x-labels">
                {/* A label starts its day or 6-hour block: the tick at the period's very end starts none. */}
                {chart.xTicks
                  .filter((tick) => tick.at < totalMin)
                  .map((tick) => (
                    <text key={tick.at} x={r1(x(tick.at)) + 4} y={PLOT_BOTTOM + 20}>
                      {tick.label}
                    </text>
                  ))}
              </g>
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
              <path d={`M0 ${PLOT_BOTTOM}H${W}`} fill="none" stroke="#9aa5b1" />
              {hydrated ? (
                <>
                  {tooltipOpen && tooltipData !== undefined && t[tooltipData] !== undefined ? (
                    <line
                      x1={r1(x(t[tooltipData]))}
                      x2={r1(x(t[tooltipData]))}
                      y1={TOP}
                      y2={PLOT_BOTTOM}
                      stroke="#16212b"
                      strokeDasharray="3 3"
                      pointerEvents="none"
                    />
                  ) : null}
                  <rect
                    y={TOP}
                    width={W}
                    height={PLOT_HEIGHT}
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
                    y={TOP}
                    width={r1(x(d.to) - x(d.from))}
                    height={PLOT_HEIGHT}
                    fill="transparent"
                  >
                    <title>{dayTitle(di)}</title>
                  </rect>
                ))
              )}
            </svg>
          </div>
          {hydrated && tooltipOpen && tooltipData !== undefined && t[tooltipData] !== undefined ? (
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
          ) : null}
        </div>
      </div>
      <div className="row no-print">
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
