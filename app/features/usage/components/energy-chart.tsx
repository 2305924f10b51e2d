import { AxisBottom, AxisLeft, AxisRight } from "@visx/axis";
import { curveLinear } from "@visx/curve";
import { Group } from "@visx/group";
import { scaleLinear } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";
import { TooltipWithBounds, useTooltip } from "@visx/tooltip";
import { useId, type FocusEvent, type MouseEvent as ReactMouseEvent, type ReactNode } from "react";
import { useHydrated } from "~/ui/use-hydrated";

/**
 * The shared chart frame of the bills and usage pages: energy as bars on the left axis, one or more lines on
 * the right axis, hatched gap marks, rendered on the server as SVG. Without JavaScript each bucket carries an
 * SVG <title>; with it, a visx tooltip. Every chart comes with a data table and a CSV link (see ChartFigure).
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
  gaps?: [number, number][];
};

const W = 960;
const H = 340;
const M = { top: 16, right: 64, bottom: 44, left: 72 };

// One formatter for every value of every chart (toLocaleString builds a new one per call).
const NUMBER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const num = (v: number) => NUMBER.format(v);
const fmt = (v: number | null, unit: string) => (v === null ? "No data" : `${num(v)} ${unit}`);

export function EnergyChart(props: EnergyChartProps) {
  const { points, bar, lines, leftMax, rightDomain, xTicks, gaps = [] } = props;
  const hydrated = useHydrated();
  // A chart whose buckets are links is a group of links, not a flat image.
  const hasLinks = points.some((p) => p.href);
  // Scrollable wrappers take keyboard focus so keyboard users can scroll them.
  const scrollFocus = 0;
  const patternId = `gap-${useId().replace(/:/g, "")}`;
  const n = Math.max(points.length, 1);
  const x = scaleLinear<number>({ domain: [0, n], range: [M.left, W - M.right] });
  const yLeft = scaleLinear<number>({ domain: [0, leftMax], range: [H - M.bottom, M.top] });
  const yRight = scaleLinear<number>({ domain: rightDomain, range: [H - M.bottom, M.top] });
  const step = (W - M.left - M.right) / n;
  const barPad = step > 8 ? step * 0.18 : step * 0.05;
  const { showTooltip, hideTooltip, tooltipOpen, tooltipData, tooltipLeft, tooltipTop } =
    useTooltip<number>();

  const onMove = (i: number) => (event: ReactMouseEvent<SVGElement>) => {
    const svg = (event.currentTarget as SVGElement).ownerSVGElement;
    const rect = svg?.getBoundingClientRect();
    if (!rect) return;
    showTooltip({
      tooltipData: i,
      tooltipLeft: event.clientX - rect.left,
      tooltipTop: event.clientY - rect.top,
    });
  };
  const onFocus = (i: number) => (event: FocusEvent<Element>) => {
    const svg = event.currentTarget.closest("svg");
    const rect = svg?.getBoundingClientRect();
    if (!rect) return;
    showTooltip({
      tooltipData: i,
      tooltipLeft: ((x(i + 0.5) ?? 0) / W) * rect.width,
      tooltipTop: rect.height / 3,
    });
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

  return (
    <div
      className="chart-scroll"
      role="region"
      aria-label={`${props.label} (scrollable)`}
      tabIndex={scrollFocus}
    >
      <div className="chart-box">
        <svg
          viewBox={`0 0 ${W} ${H}`}
          className="chart-svg"
          role={hasLinks ? "group" : "img"}
          aria-label={props.label}
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
          {gaps.map(([from, to]) => (
            <rect
              key={`gap-${from}`}
              className="chart-gap"
              x={x(from)}
              y={M.top}
              width={Math.max(2, (x(to + 1) ?? 0) - (x(from) ?? 0))}
              height={H - M.top - M.bottom}
              fill={`url(#${patternId})`}
              opacity={0.7}
            >
              <title>{`No data: ${points[from]?.label ?? ""}${to > from ? ` – ${points[to]?.label ?? ""}` : ""}`}</title>
            </rect>
          ))}
          <Group>
            {points.map((p, i) =>
              p.bar === null ? null : (
                <Bar
                  key={p.key}
                  x={(x(i) ?? 0) + barPad}
                  y={yLeft(p.bar) ?? 0}
                  width={Math.max(1, step - barPad * 2)}
                  height={Math.max(0, (yLeft(0) ?? 0) - (yLeft(p.bar) ?? 0))}
                  fill={bar.color}
                  opacity={tooltipOpen && tooltipData === i ? 1 : 0.85}
                />
              ),
            )}
          </Group>
          {lines.map((l, li) => (
            <LinePath<ChartPoint>
              key={l.name}
              data={points}
              x={(_, i) => x(i + 0.5) ?? 0}
              y={(p) => yRight(p.lines[li] ?? 0) ?? 0}
              defined={(p) => p.lines[li] !== null && p.lines[li] !== undefined}
              curve={curveLinear}
              stroke={l.color}
              strokeWidth={2}
              strokeDasharray={l.dashed ? "6 4" : undefined}
            />
          ))}
          {points.length <= 40
            ? lines.map((l, li) =>
                points.map((p, i) =>
                  p.lines[li] === null ? null : (
                    <circle
                      key={`${l.name}-${p.key}`}
                      cx={x(i + 0.5)}
                      cy={yRight(p.lines[li] ?? 0)}
                      r={3}
                      fill={l.color}
                    />
                  ),
                ),
              )
            : null}
          <AxisLeft
            scale={yLeft}
            left={M.left}
            tickValues={[0, 1, 2, 3, 4].map((i) => (leftMax / 4) * i)}
            label={props.leftLabel}
            labelOffset={44}
            stroke="#6b7280"
            tickStroke="#6b7280"
            tickLabelProps={{ fill: "#374151", fontSize: 13, textAnchor: "end", dx: -4, dy: 4 }}
            labelProps={{ fill: "#374151", fontSize: 13, textAnchor: "middle" }}
          />
          <AxisRight
            scale={yRight}
            left={W - M.right}
            tickValues={props.rightTicks}
            numTicks={5}
            label={props.rightLabel}
            labelOffset={36}
            stroke="#6b7280"
            tickStroke="#6b7280"
            tickLabelProps={{ fill: "#374151", fontSize: 13, textAnchor: "start", dx: 4, dy: 4 }}
            labelProps={{ fill: "#374151", fontSize: 13, textAnchor: "middle" }}
          />
          <AxisBottom
            scale={x}
            top={H - M.bottom}
            tickValues={xTicks.map((t) => t.at)}
            tickFormat={(v) => xTicks.find((t) => t.at === Number(v))?.label ?? ""}
            stroke="#6b7280"
            tickStroke="#6b7280"
            tickLabelProps={{ fill: "#374151", fontSize: 13, textAnchor: "middle" }}
          />
          {points.map((p, i) => {
            const hit = (
              <rect
                x={x(i)}
                y={M.top}
                width={step}
                height={H - M.top - M.bottom}
                fill="transparent"
                className="chart-hit"
                onMouseMove={onMove(i)}
                onMouseLeave={hideTooltip}
              >
                {hydrated ? null : <title>{titleOf(p)}</title>}
              </rect>
            );
            return p.href ? (
              <a
                key={p.key}
                href={p.href}
                aria-label={`${p.label}: ${p.hrefLabel ?? ""}`}
                onFocus={onFocus(i)}
                onBlur={hideTooltip}
              >
                {hit}
              </a>
            ) : (
              <g key={p.key}>{hit}</g>
            );
          })}
        </svg>
        {tooltipOpen && tooltipData !== undefined && points[tooltipData] ? (
          <TooltipWithBounds
            left={tooltipLeft}
            top={tooltipTop}
            className="chart-tooltip"
            unstyled
            applyPositionStyle
          >
            <ChartTooltipBody point={points[tooltipData]} bar={bar} lines={lines} />
          </TooltipWithBounds>
        ) : null}
      </div>
    </div>
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
      {point.href ? <a href={point.href}>{point.hrefLabel}</a> : null}
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
            className="table-wrap"
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
                    <td className="num">{p.bar === null ? "No data" : num(p.bar)}</td>
                    {lines.map((l, li) => (
                      <td key={l.name} className="num">
                        {p.lines[li] === null
                          ? "No data"
                          : p.lines[li] === undefined
                            ? null
                            : num(p.lines[li])}
                      </td>
                    ))}
                    {points.some((q) => q.href) ? (
                      <td>{p.href ? <a href={p.href}>{p.hrefLabel}</a> : null}</td>
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
