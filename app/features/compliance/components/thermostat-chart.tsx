import { Form, useSubmit } from "@remix-run/react";
import { AxisBottom, AxisLeft } from "@visx/axis";
import { curveStepAfter } from "@visx/curve";
import { Group } from "@visx/group";
import { scaleLinear, scaleTime } from "@visx/scale";
import { AreaClosed, Line, LinePath } from "@visx/shape";
import { Tooltip, useTooltip } from "@visx/tooltip";
import { useMemo, useRef, useState, type MouseEvent } from "react";
import { useHydrated } from "~/ui/use-hydrated";
import {
  CHART_HEIGHT,
  CHART_SCROLL_WIDTH,
  chartTicks,
  formatF,
  formatFullTime,
  formatTick,
  MODE_LABELS,
  modeRuns,
  SERIES,
  tickIntervalMs,
  yDomain,
  type ChartOptions,
  type HistoryPoint,
  type SeriesField,
} from "../compliance";

const M = { top: 16, right: 32, bottom: 44, left: 32 };
const AXIS_W = 64;
const STEP_MS = 30 * 60_000;
const MODE_COLORS: Record<string, string> = {
  cool: "#dbeafe",
  heat: "#fee2e2",
  auto: "#ede9fe",
  off: "#e5e7eb",
  ventilation: "#ecfccb",
  dehumidifier: "#cffafe",
  emergencyheat: "#fed7aa",
};

type P = { t: number; v: number | null };

/** Coordinates to a tenth of a pixel: keeps the server-rendered SVG small. */
const r1 = (n: number) => Math.round(n * 10) / 10;

/** Scrollable regions take keyboard focus so they can be scrolled with the arrow keys (WCAG 2.1.1). */
const SCROLL_REGION_TAB_INDEX = 0;

/** A series as stepped points; a gap in the history (unreachable time) breaks the line. */
function seriesPoints(items: HistoryPoint[], field: SeriesField): P[] {
  const out: P[] = [];
  items.forEach((it, i) => {
    const t = Date.parse(it.recordedAt);
    const v = it[field];
    out.push({ t, v });
    const next = i + 1 < items.length ? Date.parse(items[i + 1].recordedAt) : t + STEP_MS;
    if (next - t > STEP_MS) {
      out.push({ t: t + STEP_MS, v }, { t: t + STEP_MS, v: null });
    } else if (i === items.length - 1) out.push({ t: t + STEP_MS, v });
  });
  return out;
}

export function ThermostatChart({
  items,
  timezone,
  startMs,
  endMs,
  options,
  keep,
  helpUrl,
  csvHref,
}: {
  items: HistoryPoint[];
  timezone: string;
  startMs: number;
  endMs: number;
  options: ChartOptions;
  keep: [string, string][];
  helpUrl: string;
  /** The resource route that answers the plotted series as CSV. */
  csvHref: string;
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const { tooltipOpen, tooltipLeft, tooltipTop, tooltipData, showTooltip, hideTooltip } =
    useTooltip<HistoryPoint>();
  const frameRef = useRef<HTMLDivElement>(null);
  const [guideX, setGuideX] = useState(0);
  const innerW = CHART_SCROLL_WIDTH - M.left - M.right;
  const innerH = CHART_HEIGHT - M.top - M.bottom;
  const x = useMemo(
    () => scaleTime({ domain: [new Date(startMs), new Date(endMs)], range: [0, innerW] }),
    [startMs, endMs, innerW],
  );
  const [lo, hi] = yDomain(items, options.visible);
  const y = scaleLinear({ domain: [lo, hi], range: [innerH, 0], nice: true });
  const step = tickIntervalMs(startMs, endMs);
  const ticks = chartTicks(startMs, endMs, timezone);
  const shown = SERIES.filter((s) => options.visible.includes(s.key));
  const times = useMemo(() => items.map((it) => Date.parse(it.recordedAt)), [items]);
  const labels = useMemo(() => times.map((t) => formatFullTime(t, timezone)), [times, timezone]);

  const onMove = (e: MouseEvent<SVGRectElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const t = +x.invert(e.clientX - rect.left);
    let lo2 = 0;
    let hi2 = times.length - 1;
    while (lo2 < hi2) {
      const mid = (lo2 + hi2) >> 1;
      if (times[mid] < t) lo2 = mid + 1;
      else hi2 = mid;
    }
    const i = lo2 > 0 && Math.abs(times[lo2 - 1] - t) < Math.abs(times[lo2] - t) ? lo2 - 1 : lo2;
    const it = items[i];
    if (!it) return;
    // The tooltip sits in the visible frame (not the 6000px plot), flipped to the left near the right edge.
    const frame = frameRef.current?.getBoundingClientRect();
    const fx = frame ? e.clientX - frame.left : e.clientX;
    const fy = frame ? e.clientY - frame.top : e.clientY;
    const width = frame?.width ?? 800;
    setGuideX(x(times[i]));
    showTooltip({
      tooltipData: it,
      tooltipLeft: fx > width - 280 ? fx - 270 : fx + 16,
      tooltipTop: Math.min(fy, CHART_HEIGHT - 140),
    });
  };

  const title = (it: HistoryPoint, i: number) =>
    [labels[i], ...shown.map((s) => `${s.label}: ${formatF(it[s.field])}`)].join("\n");

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
      <div className="chart-frame" data-testid="thermostat-chart" ref={frameRef}>
        <svg width={AXIS_W} height={CHART_HEIGHT} className="chart-axis" aria-hidden="true">
          <Group left={AXIS_W - 1} top={M.top}>
            <AxisLeft
              scale={y}
              numTicks={8}
              tickFormat={(v) => `${v}`}
              stroke="#9aa5b1"
              tickStroke="#9aa5b1"
            />
          </Group>
          <text
            transform={`translate(14, ${M.top + innerH / 2}) rotate(-90)`}
            textAnchor="middle"
            fontSize={12}
            fill="#4f5d6b"
          >
            °Fahrenheit
          </text>
        </svg>
        <div
          className="chart-scroll"
          role="region"
          tabIndex={SCROLL_REGION_TAB_INDEX}
          aria-label="Thermostat Settings chart, scrolls horizontally"
          aria-describedby="chart-desc"
        >
          <div style={{ position: "relative", width: CHART_SCROLL_WIDTH }}>
            <svg
              width={CHART_SCROLL_WIDTH}
              height={CHART_HEIGHT}
              role="img"
              aria-labelledby="chart-svg-title"
            >
              <title id="chart-svg-title">{`Thermostat Settings: ${shown.map((s) => s.label).join(", ") || "no series selected"}`}</title>
              <Group left={M.left} top={M.top}>
                {options.plotBands === "mode"
                  ? modeRuns(items, endMs).map((r) => (
                      <rect
                        key={`${r.mode}-${r.from}`}
                        x={r1(x(r.from))}
                        y={0}
                        width={r1(Math.max(1, x(r.to) - x(r.from)))}
                        height={innerH}
                        fill={Object.hasOwn(MODE_COLORS, r.mode) ? MODE_COLORS[r.mode] : "#f3f4f6"}
                        data-testid="mode-band"
                      >
                        <title>{`Mode: ${Object.hasOwn(MODE_LABELS, r.mode) ? MODE_LABELS[r.mode] : r.mode}`}</title>
                      </rect>
                    ))
                  : null}
                {y.ticks(8).map((v) => (
                  <line key={v} x1={0} x2={innerW} y1={y(v)} y2={y(v)} stroke="#e5e9ee" />
                ))}
                {ticks.map((t) => (
                  <line key={t} x1={x(t)} x2={x(t)} y1={0} y2={innerH} stroke="#f0f2f5" />
                ))}
                {shown.map((s) => {
                  const pts = seriesPoints(items, s.field);
                  const common = {
                    data: pts,
                    x: (p: P) => r1(x(p.t)),
                    y: (p: P) => r1(y(p.v ?? lo)),
                    defined: (p: P) => p.v !== null,
                    curve: curveStepAfter,
                  };
                  if (s.key === "schedule")
                    return (
                      <g key={s.key} data-testid="series-schedule">
                        <AreaClosed {...common} yScale={y} fill={s.color} fillOpacity={0.18} stroke="none" />
                        <LinePath {...common} stroke={s.color} strokeWidth={2} />
                      </g>
                    );
                  return (
                    <g key={s.key} data-testid={`series-${s.key}`}>
                      <LinePath
                        {...common}
                        stroke={s.color}
                        strokeWidth={s.key === "indoor" ? 1.5 : 2}
                        strokeDasharray={s.key === "indoor" ? "6 4" : undefined}
                      />
                    </g>
                  );
                })}
                {options.showMarker
                  ? shown.map((s) =>
                      items.map((it) =>
                        typeof it[s.field] === "number" ? (
                          <circle
                            key={`${s.key}-${it.recordedAt}`}
                            cx={r1(x(Date.parse(it.recordedAt)))}
                            cy={r1(y(it[s.field] as number))}
                            r={2.5}
                            fill={s.color}
                            data-testid="marker"
                          />
                        ) : null,
                      ),
                    )
                  : null}
                <AxisBottom
                  top={innerH}
                  scale={x}
                  tickValues={ticks.map((t) => new Date(t))}
                  tickFormat={(d) => formatTick(+(d as Date), timezone, step)}
                  stroke="#9aa5b1"
                  tickStroke="#9aa5b1"
                />
                {hydrated ? (
                  <>
                    {tooltipOpen && tooltipData ? (
                      <Line
                        from={{ x: guideX, y: 0 }}
                        to={{ x: guideX, y: innerH }}
                        stroke="#16212b"
                        strokeDasharray="3 3"
                        pointerEvents="none"
                      />
                    ) : null}
                    <rect
                      width={innerW}
                      height={innerH}
                      fill="transparent"
                      onMouseMove={onMove}
                      onMouseLeave={hideTooltip}
                      data-testid="chart-overlay"
                    />
                  </>
                ) : (
                  items.map((it, i) => {
                    const t = times[i];
                    const next = i + 1 < times.length ? Math.min(times[i + 1], t + STEP_MS) : t + STEP_MS;
                    return (
                      <rect
                        key={it.recordedAt}
                        className="tip-rect"
                        x={r1(x(t))}
                        y={0}
                        width={r1(Math.max(1, x(next) - x(t)))}
                        height={innerH}
                        fill="transparent"
                      >
                        <title>{title(it, i)}</title>
                      </rect>
                    );
                  })
                )}
              </Group>
            </svg>
          </div>
        </div>
        {hydrated && tooltipOpen && tooltipData ? (
          <Tooltip
            left={tooltipLeft}
            top={tooltipTop}
            className="chart-tooltip"
            unstyled
            applyPositionStyle
            data-testid="chart-tooltip"
          >
            <strong>{formatFullTime(Date.parse(tooltipData.recordedAt), timezone)}</strong>
            {shown.map((s) => (
              <div key={s.key}>
                <span className={`swatch swatch-${s.key}`} aria-hidden="true" /> {s.label}:{" "}
                {formatF(tooltipData[s.field])}
              </div>
            ))}
          </Tooltip>
        ) : null}
      </div>
      <div className="row">
        <a className="btn btn-secondary btn-small" download href={csvHref} data-testid="csv-download">
          Download CSV
        </a>
      </div>
      <details className="chart-data">
        <summary>Data table</summary>
        <div
          className="table-wrap chart-data-table"
          role="region"
          tabIndex={SCROLL_REGION_TAB_INDEX}
          aria-label="Thermostat Settings data"
        >
          <table className="table table-compact" data-testid="chart-data-table">
            <caption className="visually-hidden">Thermostat Settings data in °F</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {shown.map((s) => (
                  <th key={s.key} scope="col" className="num">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {items.map((it, i) => (
                <tr key={it.recordedAt}>
                  <td>{labels[i]}</td>
                  {shown.map((s) => (
                    <td key={s.key} className="num">
                      {formatF(it[s.field])}
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
