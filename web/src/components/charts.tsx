// Small charts drawn as plain SVG (the reports page): grouped bars, lines and stacked horizontal bars.
// No chart library: these three shapes are ~200 lines, where a library would add tens of KiB to the
// console's bundle and its own accessibility to audit. Every chart is an image with a title and a
// description for screen readers, a legend in text, and the same figures as a table a click away.
import type { ComponentChildren } from 'preact';

export interface Series {
  name: string;
  /** One value per category; null: nothing to draw there (a line breaks). */
  values: Array<number | null>;
}

const WIDTH = 640;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 12, bottom: 44, left: 56 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;

/** The smallest 1, 2 or 5 × 10^k at or above `value` (an axis that ends on a round number). */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function maxOf(series: readonly Series[]): number {
  let max = 0;
  for (const s of series) for (const v of s.values) if (v !== null && v > max) max = v;
  return max;
}

/** Every nth category label, so at most ~10 show under the axis. */
const labelEvery = (count: number) => Math.max(1, Math.ceil(count / 10));

function Frame({ id, title, description, children }: { id: string; title: string; description: string; children: ComponentChildren }) {
  return (
    <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} focusable="false">
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {children}
    </svg>
  );
}

/** A count on an axis: whole, or to one decimal between whole ticks. */
export const formatCount = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

/** Ticks from 0 to max: quarters, or every whole number when a count axis ends at 4 or below. */
function ticksOf(max: number, whole: boolean): number[] {
  if (whole && max <= 4) return Array.from({ length: max + 1 }, (_, i) => i);
  return [0, 0.25, 0.5, 0.75, 1].map((f) => f * max);
}

function YAxis({ max, format, whole = false }: { max: number; format: (value: number) => string; whole?: boolean }) {
  const ticks = ticksOf(max, whole);
  return (
    <g class="chart-axis" aria-hidden="true">
      {ticks.map((tick) => {
        const y = MARGIN.top + PLOT_H - (tick / max) * PLOT_H;
        return (
          <g key={tick}>
            <line class="chart-grid" x1={MARGIN.left} x2={MARGIN.left + PLOT_W} y1={y} y2={y} />
            <text x={MARGIN.left - 6} y={y + 4} text-anchor="end">
              {format(tick)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

function XLabels({ labels }: { labels: readonly string[] }) {
  const every = labelEvery(labels.length);
  const band = PLOT_W / Math.max(1, labels.length);
  return (
    <g class="chart-axis" aria-hidden="true">
      {labels.map((label, i) =>
        i % every === 0 ? (
          <text key={label} x={MARGIN.left + band * (i + 0.5)} y={HEIGHT - MARGIN.bottom + 18} text-anchor="middle">
            {label}
          </text>
        ) : null,
      )}
    </g>
  );
}

export function Legend({ names }: { names: readonly string[] }) {
  return (
    <ul class="chart-legend">
      {names.map((name, i) => (
        <li key={name}>
          <span class={`chart-swatch series-${i}`} aria-hidden="true" />
          {name}
        </li>
      ))}
    </ul>
  );
}

/** Bars side by side per category, one colour per series. */
export function GroupedBars(props: {
  id: string;
  title: string;
  description: string;
  labels: readonly string[];
  series: readonly Series[];
}) {
  const max = niceMax(maxOf(props.series));
  const band = PLOT_W / Math.max(1, props.labels.length);
  const bar = (band * 0.8) / Math.max(1, props.series.length);
  return (
    <Frame id={props.id} title={props.title} description={props.description}>
      <YAxis max={max} format={formatCount} whole />
      <XLabels labels={props.labels} />
      {props.series.map((s, si) => (
        <g key={s.name} class={`series-${si}`}>
          {s.values.map((value, i) =>
            value ? (
              <rect
                key={i}
                x={MARGIN.left + band * i + band * 0.1 + bar * si}
                y={MARGIN.top + PLOT_H - (value / max) * PLOT_H}
                width={Math.max(1, bar - 1)}
                height={(value / max) * PLOT_H}
              />
            ) : null,
          )}
        </g>
      ))}
    </Frame>
  );
}

/** Lines through each series' values, a dot on each; a null breaks the line. */
export function Lines(props: {
  id: string;
  title: string;
  description: string;
  labels: readonly string[];
  series: readonly Series[];
  format: (value: number) => string;
}) {
  const max = niceMax(maxOf(props.series));
  const band = PLOT_W / Math.max(1, props.labels.length);
  const at = (i: number, value: number) => [MARGIN.left + band * (i + 0.5), MARGIN.top + PLOT_H - (value / max) * PLOT_H] as const;
  return (
    <Frame id={props.id} title={props.title} description={props.description}>
      <YAxis max={max} format={props.format} />
      <XLabels labels={props.labels} />
      {props.series.map((s, si) => {
        const runs: string[] = [];
        let run: string[] = [];
        s.values.forEach((value, i) => {
          if (value === null) {
            if (run.length) runs.push(run.join(' '));
            run = [];
          } else run.push(at(i, value).join(','));
        });
        if (run.length) runs.push(run.join(' '));
        return (
          <g key={s.name} class={`series-${si} chart-line`}>
            {runs.map((points) => (
              <polyline key={points} points={points} />
            ))}
            {s.values.map((value, i) => (value === null ? null : <circle key={i} cx={at(i, value)[0]} cy={at(i, value)[1]} r={3} />))}
          </g>
        );
      })}
    </Frame>
  );
}

/** One horizontal bar per row, its series stacked. */
export function StackedRows(props: {
  id: string;
  title: string;
  description: string;
  labels: readonly string[];
  series: readonly Series[];
}) {
  const totals = props.labels.map((_, i) => props.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const rowHeight = 26;
  const left = 150;
  const width = WIDTH - left - MARGIN.right;
  const height = Math.max(60, props.labels.length * rowHeight + 30);
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-labelledby={`${props.id}-title ${props.id}-desc`}
      focusable="false"
    >
      <title id={`${props.id}-title`}>{props.title}</title>
      <desc id={`${props.id}-desc`}>{props.description}</desc>
      <g class="chart-axis" aria-hidden="true">
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line class="chart-grid" x1={left + f * width} x2={left + f * width} y1={0} y2={height - 24} />
            <text x={left + f * width} y={height - 8} text-anchor="middle">
              {formatCount(f * max)}
            </text>
          </g>
        ))}
        {props.labels.map((label, i) => (
          <text key={label} x={left - 8} y={i * rowHeight + 17} text-anchor="end">
            {label.length > 22 ? `${label.slice(0, 21)}…` : label}
          </text>
        ))}
      </g>
      {props.labels.map((label, i) => {
        let x = left;
        return (
          <g key={label}>
            {props.series.map((s, si) => {
              const value = s.values[i] ?? 0;
              const w = (value / max) * width;
              const rect =
                value > 0 ? (
                  <rect key={s.name} class={`series-${si}`} x={x} y={i * rowHeight + 4} width={w} height={rowHeight - 8} />
                ) : null;
              x += w;
              return rect;
            })}
          </g>
        );
      })}
    </svg>
  );
}

/** The figures behind a chart, a click away. */
export function DataTable(props: { caption: string; head: readonly string[]; rows: ReadonlyArray<ReadonlyArray<string | number>> }) {
  return (
    <details class="chart-table">
      <summary>Show the figures as a table</summary>
      <table class="table">
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.head.map((h, i) => (
              <th key={h} scope="col" class={i > 0 ? 'number' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={String(row[0])}>
              {row.map((cell, i) =>
                i === 0 ? (
                  <th key={i} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={i} class="number">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
