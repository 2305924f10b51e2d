import { Fragment, useLayoutEffect, useRef, useState, type ReactNode } from "react";

/**
 * The frame every chart of the product draws in: a plot that fits the width of its column (an SVG with
 * `preserveAspectRatio="none"` and non-scaling strokes, so it stretches to any width without a sideways
 * scroll) and its axes as HTML text around it, so labels keep their CSS size (never scaled down with the
 * drawing) on a phone, at 200 % zoom and on a wide screen alike.
 *
 * On a narrow chart (a container query on the frame, CSS only: the same with JavaScript on and off) the x
 * labels marked `only: "wide"` are hidden and those marked `only: "narrow"` shown, leaving a few evenly
 * spaced ones. The axes are decoration for sighted
 * readers (`aria-hidden`): each chart's text alternative is its label and its data table.
 */
export type AxisTick = {
  /** Position along the axis, 0–1 (x: from the left; y: from the bottom). */
  at: number;
  label: string;
  /** A label shown only on a wide chart (thinned on a phone), or only on a narrow one. */
  only?: "wide" | "narrow";
};

export type AxisSpec = { title: string; ticks: AxisTick[] };

/**
 * A space between two labels of an axis: a styled page places each label on its own (absolutely), but a text
 * browser (w3m, lynx: docs/text-browsers.md) reads them in a row, "0 4,000 8,000", not "04,0008,000".
 */
const gap = (i: number) => (i > 0 ? " " : null);

const pct = (v: number) => `${Math.round(Math.min(1, Math.max(0, v)) * 10000) / 100}%`;

/** Which labels of `count` evenly spaced ticks a narrow chart keeps: every k-th, at most `max` of them. */
export function narrowEvery(count: number, max = 5) {
  return Math.max(1, Math.ceil(count / max));
}

export function PlotFrame({
  left,
  right,
  bottom,
  bottomTitle,
  className,
  children,
  overlay,
  testId,
}: {
  left: AxisSpec;
  right?: AxisSpec;
  bottom: AxisTick[];
  /** The x axis's title, under its labels: its unit (and zone, for times). */
  bottomTitle?: string;
  className?: string;
  /** The plot: an SVG drawn in its own viewBox, stretched to the plot area. */
  children: ReactNode;
  /** Positioned over the plot area (a tooltip). */
  overlay?: ReactNode;
  testId?: string;
}) {
  return (
    <div className={`plot${className ? ` ${className}` : ""}`} data-testid={testId}>
      <div className={`plot-grid${right ? " plot-has-right" : ""}`}>
        <div className="plot-titles" aria-hidden="true">
          <span>{left.title}</span>
          {right ? (
            <>
              {gap(1)}
              <span>{right.title}</span>
            </>
          ) : null}
        </div>
        <div className="plot-axis plot-axis-left" aria-hidden="true">
          {left.ticks.map((t, i) => (
            <Fragment key={`${t.at}-${t.label}`}>
              {gap(i)}
              <span style={{ top: pct(1 - t.at) }}>{t.label}</span>
            </Fragment>
          ))}
        </div>
        <div className="plot-area">
          {children}
          {overlay}
        </div>
        {right ? (
          <div className="plot-axis plot-axis-right" aria-hidden="true">
            {right.ticks.map((t, i) => (
              <Fragment key={`${t.at}-${t.label}`}>
                {gap(i)}
                <span style={{ top: pct(1 - t.at) }}>{t.label}</span>
              </Fragment>
            ))}
          </div>
        ) : null}
        <div className="plot-axis plot-axis-x" aria-hidden="true">
          {bottom.map((t, i) => (
            <Fragment key={`${t.at}-${t.label}`}>
              {gap(i)}
              <span style={{ left: pct(t.at) }} className={t.only ? `plot-tick-${t.only}` : undefined}>
                {t.label}
              </span>
            </Fragment>
          ))}
        </div>
        {bottomTitle ? (
          <div className="plot-title-x" aria-hidden="true" data-testid="plot-x-title">
            {bottomTitle}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/**
 * A tooltip inside the plot area at the pointer (`left`, `top` in the area's pixels): beside it, flipped to
 * the other side near an edge and clamped so that it never leaves the plot sideways (on a phone the plot
 * is narrower than twice the tooltip). Rendered only after hydration, on pointer moves.
 */
export function PlotTooltip({
  left,
  top,
  className,
  testId,
  children,
}: {
  left: number;
  top: number;
  className: string;
  testId?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ x: number; y: number } | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    const area = el?.parentElement;
    if (!el || !area) return;
    const gap = 12;
    const [w, h, aw, ah] = [el.offsetWidth, el.offsetHeight, area.clientWidth, area.clientHeight];
    let x = left + gap + w > aw ? left - gap - w : left + gap;
    x = Math.max(0, Math.min(x, aw - w));
    const y = top + gap + h > ah ? Math.max(top - gap - h, -h / 2) : top + gap;
    setPos({ x: Math.round(x), y: Math.round(y) });
  }, [left, top]);
  return (
    <div
      ref={ref}
      className={className}
      data-testid={testId}
      style={{
        position: "absolute",
        left: pos?.x ?? 0,
        top: pos?.y ?? 0,
        visibility: pos ? "visible" : "hidden",
      }}
    >
      {children}
    </div>
  );
}
