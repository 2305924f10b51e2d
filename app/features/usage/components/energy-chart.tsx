import { ticks } from "d3-array";
import { useTooltip } from "@visx/tooltip";
import { Link } from "@remix-run/react";
import { useId, type FocusEvent, type MouseEvent as ReactMouseEvent, type ReactNode } from "react";
import { formatDecimal } from "~/lib/decimal";
import { useHydrated } from "~/ui/use-hydrated";
import { narrowEvery, PlotFrame, PlotTooltip, type AxisTick } from "~/ui/plot-frame";

/**
 * The shared chart of the bills and usage pages: energy as bars on the left axis, one or more lines on the
 * right axis, hatched gap marks, rendered on the server as SVG that fits the width of its column (both axes
 * always in view, fewer x labels on a phone: PlotFrame). Without JavaScript each bucket carries an SVG
 * <title>; with it, a visx tooltip driven by one handler on the plot (no per-bar handlers to hydrate).
 * Every chart comes with a data table and a CSV link (see ChartFigure).
 */
export type ChartPoint = {
  key: string;
  /** The bucket's full label (tooltip heading, table row). */
  label: string;
  bar: number | null;
  lines: (number | null)[];
  /** A bucket that links somewhere (a bill's usage page). */
  href?: string;
  hrefLabel?: string;
};

export type ChartSeries = { name: string; unit: string; color: string; dashed?: boolean };

export type EnergyChartProps = {
  label: string;
  points: ChartPoint[];
  bar: ChartSeries;
  lines: ChartSeries[];
  leftMax: number;
  leftLabel: string;
  rightDomain: [number, number];
  rightLabel: string;
  /** Right axis ticks; visx picks them when absent. */
  rightTicks?: number[];
  xTicks: { at: number; label: string }[];
  /** The x axis's title, under its labels ("Hour of day (ET)"). */
  xTitle?: string;
  gaps?: [number, number][];
};

/** The plot's own coordinates; the SVG stretches them to the plot area. */
const W = 1000;
const H = 300;
/** A phone keeps at most this many x labels. */
const NARROW_X_LABELS = 4;

// Intl's en-US digits without an Intl formatter, whose first construction stalls hydration (app/lib/decimal.ts).
const num = (v: number) => formatDecimal(v, 0, 2);
const fmt = (v: number | null, unit: string) => (v === null ? "No data" : `${num(v)} ${unit}`);
const r1 = (v: number) => Math.round(v * 10) / 10;

/** The x labels: all on a wide chart, every k-th (at most NARROW_X_LABELS) on a narrow one. */
export function xAxisTicks(xTicks: { at: number; label: string }[], n: number): AxisTick[] {
  const every = xTicks.length > NARROW_X_LABELS ? narrowEvery(xTicks.length, NARROW_X_LABELS) : 1;
  return xTicks.map((t, i) => ({
    at: t.at / n,
    label: t.label,
    ...(i % every !== 0 ? { only: "wide" as const } : {}),
  }));
}

export function EnergyChart(props: EnergyChartProps) {
  const { points, bar, lines, leftMax, rightDomain, xTicks, gaps = [] } = props;
  const hydrated = useHydrated();
  // A chart whose buckets are links is a group of links, not a flat image.
  const hasLinks = points.some((p) => p.href);
  const patternId = `gap-${useId().replace(/:/g, "")}`;
  const n = Math.max(points.length, 1);
  const step = W / n;
  const x = (i: number) => i * step;
  const yLeft = (v: number) => H - (leftMax > 0 ? (v / leftMax) * H : 0);
  const [r0, r1d] = rightDomain;
  const yRight = (v: number) => H - ((v - r0) / (r1d - r0 || 1)) * H;
  const barPad = step * 0.18;
  const { showTooltip, hideTooltip, tooltipOpen, tooltipData, tooltipLeft, tooltipTop } =
    useTooltip<number>();

  // One handler each on the plot: the bucket under the pointer, or the focused bucket link.
  const onMove = (event: ReactMouseEvent<SVGSVGElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    if (!rect.width) return;
    const i = Math.floor(((event.clientX - rect.left) / rect.width) * n);
    if (i < 0 || i >= points.length) return hideTooltip();
    showTooltip({
      tooltipData: i,
      tooltipLeft: event.clientX - rect.left,
      tooltipTop: event.clientY - rect.top,
    });
  };
  const onFocus = (event: FocusEvent<SVGSVGElement>) => {
    const i = Number((event.target as Element).getAttribute("data-i"));
    const rect = event.currentTarget.getBoundingClientRect();
    if (!Number.isInteger(i) || !rect.width) return;
    showTooltip({ tooltipData: i, tooltipLeft: ((i + 0.5) / n) * rect.width, tooltipTop: rect.height / 3 });
  };

  const titleOf = (p: ChartPoint) =>
    [
      p.label,
      `${bar.name}: ${fmt(p.bar, bar.unit)}`,
      ...lines.map((l, li) => `${l.name}: ${fmt(p.lines[li], l.unit)}`),
      p.hrefLabel ?? "",
    ]
      .filter(Boolean)
      .join("\n");

  // d3's own tick rule (what a visx linear scale's .ticks(5) returns), without the scale's 30 KB of code.
  const rightTicks = props.rightTicks ?? ticks(rightDomain[0], rightDomain[1], 5);

  /** A line series as one path; a missing value breaks it. */
  const linePath = (li: number) => {
    let d = "";
    let pen = false;
    points.forEach((p, i) => {
      const v = p.lines[li];
      if (v === null || v === undefined) {
        pen = false;
        return;
      }
      d += `${pen ? "L" : "M"}${r1(x(i + 0.5))} ${r1(yRight(v))}`;
      pen = true;
    });
    return d;
  };
  const dotsPath = (li: number) =>
    points
      .map((p, i) => {
        const v = p.lines[li];
        return v === null || v === undefined ? "" : `M${r1(x(i + 0.5))} ${r1(yRight(v))}h0`;
      })
      .join("");

  return (
    <PlotFrame
      className="energy-plot"
      left={{
        title: props.leftLabel,
        ticks: [0, 1, 2, 3, 4].map((k) => ({ at: k / 4, label: num((leftMax / 4) * k) })),
      }}
      right={{
        title: props.rightLabel,
        ticks: rightTicks.map((v) => ({ at: (v - r0) / (r1d - r0 || 1), label: num(v) })),
      }}
      bottom={xAxisTicks(xTicks, n)}
      bottomTitle={props.xTitle}
      overlay={
        tooltipOpen && tooltipData !== undefined && points[tooltipData] ? (
          <PlotTooltip left={tooltipLeft ?? 0} top={tooltipTop ?? 0} className="chart-tooltip">
            <ChartTooltipBody point={points[tooltipData]} bar={bar} lines={lines} />
          </PlotTooltip>
        ) : null
      }
    >
      <svg
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        className="chart-svg"
        role={hasLinks ? "group" : "img"}
        aria-label={props.label}
        onMouseMove={hydrated ? onMove : undefined}
        onMouseLeave={hydrated ? hideTooltip : undefined}
        onFocus={hydrated ? onFocus : undefined}
        onBlur={hydrated ? hideTooltip : undefined}
      >
        <defs>
          <pattern
            id={patternId}
            width="8"
            height="8"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect width="8" height="8" fill="#f3f4f6" />
            <line x1="0" y1="0" x2="0" y2="8" stroke="#9ca3af" strokeWidth="3" />
          </pattern>
        </defs>
        {[1, 2, 3].map((k) => (
          <line key={k} x1={0} x2={W} y1={(H / 4) * k} y2={(H / 4) * k} stroke="#eef0f3" />
        ))}
        {gaps.map(([from, to]) => (
          <rect
            key={`gap-${from}`}
            className="chart-gap"
            x={r1(x(from))}
            y={0}
            width={r1(Math.max(2, x(to + 1) - x(from)))}
            height={H}
            fill={`url(#${patternId})`}
            opacity={0.7}
          >
            <title>{`No data: ${points[from]?.label ?? ""}${to > from ? ` – ${points[to]?.label ?? ""}` : ""}`}</title>
          </rect>
        ))}
        <g>
          {points.map((p, i) =>
            p.bar === null ? null : (
              <rect
                key={p.key}
                x={r1(x(i) + barPad)}
                y={r1(yLeft(p.bar))}
                width={r1(Math.max(1, step - barPad * 2))}
                height={r1(Math.max(0, H - yLeft(p.bar)))}
                fill={bar.color}
                opacity={tooltipOpen && tooltipData === i ? 1 : 0.85}
              />
            ),
          )}
        </g>
        {lines.map((l, li) => (
          <g key={l.name}>
            <path
              className="plot-line"
              d={linePath(li)}
              stroke={l.color}
              strokeWidth={2}
              strokeDasharray={l.dashed ? "6 4" : undefined}
            />
            {points.length <= 40 ? (
              <path className="plot-dots" d={dotsPath(li)} stroke={l.color} strokeWidth={6} />
            ) : null}
          </g>
        ))}
        <path className="plot-axes" d={`M0 0V${H}H${W}V0`} fill="none" stroke="#6b7280" />
        {points.map((p, i) => {
          const hit = (
            <rect x={r1(x(i))} y={0} width={r1(step)} height={H} fill="transparent" className="chart-hit">
              {hydrated ? null : <title>{titleOf(p)}</title>}
            </rect>
          );
          return p.href ? (
            // The table below the chart has the same links: they let Remix discover the route.
            <Link
              key={p.key}
              to={p.href}
              discover="none"
              aria-label={`${p.label}: ${p.hrefLabel ?? ""}`}
              data-i={i}
            >
              {hit}
            </Link>
          ) : (
            <g key={p.key}>{hit}</g>
          );
        })}
      </svg>
    </PlotFrame>
  );
}

function ChartTooltipBody({
  point,
  bar,
  lines,
}: {
  point: ChartPoint;
  bar: ChartSeries;
  lines: ChartSeries[];
}) {
  return (
    <div>
      <strong>{point.label}</strong>
      <dl>
        <div>
          <dt>{bar.name}</dt>
          <dd>{fmt(point.bar, bar.unit)}</dd>
        </div>
        {lines.map((l, li) => (
          <div key={l.name}>
            <dt>{l.name}</dt>
            <dd>{fmt(point.lines[li], l.unit)}</dd>
          </div>
        ))}
      </dl>
      {/* The bar itself is the link (the tooltip takes no pointer events): its label, not a second link. */}
      {point.href ? <span className="chart-tooltip-link">{point.hrefLabel}</span> : null}
    </div>
  );
}

/** The legend: a list of swatches, plus the gap mark when the chart has gaps. */
export function ChartLegend({
  bar,
  lines,
  hasGaps,
}: {
  bar: ChartSeries;
  lines: ChartSeries[];
  hasGaps?: boolean;
}) {
  return (
    <ul className="chart-legend" aria-label="Legend">
      <li>
        <span className="swatch swatch-bar" style={{ background: bar.color }} aria-hidden="true" />
        {bar.name} ({bar.unit})
      </li>
      {lines.map((l) => (
        <li key={l.name}>
          <span
            className={`swatch swatch-line${l.dashed ? " swatch-dashed" : ""}`}
            style={{ borderColor: l.color }}
            aria-hidden="true"
          />
          {l.name} ({l.unit})
        </li>
      ))}
      {hasGaps ? (
        <li>
          <span className="swatch swatch-gap" aria-hidden="true" />
          No data
        </li>
      ) : null}
    </ul>
  );
}

/**
 * A chart with its legend, its data table (in a disclosure a person can open and a screen reader can read)
 * and a CSV download of exactly what it plots.
 */
export function ChartFigure({
  title,
  headingId,
  chart,
  csvHref,
  csvName,
  children,
}: {
  title: string;
  headingId: string;
  chart: EnergyChartProps;
  csvHref: string;
  csvName: string;
  children?: ReactNode;
}) {
  const { points, bar, lines } = chart;
  const scrollFocus = 0;
  return (
    <figure className="chart-figure" aria-labelledby={headingId}>
      <ChartLegend bar={bar} lines={lines} hasGaps={Boolean(chart.gaps?.length)} />
      <EnergyChart {...chart} />
      {children}
      <div className="chart-tools">
        <details className="chart-data">
          <summary>Show data table</summary>
          <div
            className="table-wrap table-cards"
            role="region"
            aria-label={`${title}: data table`}
            tabIndex={scrollFocus}
          >
            <table className="table">
              <caption className="visually-hidden">{title}: data table</caption>
              <thead>
                <tr>
                  <th scope="col">Period</th>
                  <th scope="col" className="num">
                    {bar.name} ({bar.unit})
                  </th>
                  {lines.map((l) => (
                    <th key={l.name} scope="col" className="num">
                      {l.name} ({l.unit})
                    </th>
                  ))}
                  {points.some((p) => p.href) ? <th scope="col">Usage</th> : null}
                </tr>
              </thead>
              <tbody>
                {points.map((p) => (
                  <tr key={p.key}>
                    <th scope="row">{p.label}</th>
                    <td className="num" data-label={`${bar.name} (${bar.unit})`}>
                      {p.bar === null ? "No data" : num(p.bar)}
                    </td>
                    {lines.map((l, li) => (
                      <td key={l.name} className="num" data-label={`${l.name} (${l.unit})`}>
                        {p.lines[li] === null
                          ? "No data"
                          : p.lines[li] === undefined
                            ? null
                            : num(p.lines[li])}
                      </td>
                    ))}
                    {points.some((q) => q.href) ? (
                      <td data-label="Usage">{p.href ? <Link to={p.href}>{p.hrefLabel}</Link> : null}</td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
        <a className="btn btn-secondary btn-small" href={csvHref} download={csvName}>
          Download CSV
        </a>
      </div>
    </figure>
  );
}
