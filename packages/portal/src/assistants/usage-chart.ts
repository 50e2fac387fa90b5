import { svg } from 'lit';

export interface ChartSeries {
  label: string;
  /** A CSS colour (a custom property of the portal's palette). */
  color: string;
  values: number[];
}

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  value: number;
}

const WIDTH = 640;
const HEIGHT = 160;
const GAP = 0.25;

/** The largest value shown, rounded up to a readable axis maximum (1, 2, 5 × 10ⁿ). */
export function niceMax(values: readonly number[]): number {
  const max = Math.max(0, ...values);
  if (max === 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((m) => m * power >= max)!;
  return step * power;
}

/**
 * Grouped bars: one group per day, one bar per series, all on one scale. Pure geometry, so the
 * tests check the numbers and the element only draws them.
 */
export function groupedBars(series: readonly ChartSeries[], width = WIDTH, height = HEIGHT): Bar[][] {
  const days = Math.max(0, ...series.map((s) => s.values.length));
  if (days === 0) return series.map(() => []);
  const max = niceMax(series.flatMap((s) => s.values));
  const group = width / days;
  const bar = (group * (1 - GAP)) / series.length;
  return series.map((s, index) =>
    s.values.map((value, day) => {
      const h = (value / max) * height;
      return {
        x: day * group + (group * GAP) / 2 + index * bar,
        y: height - h,
        width: bar,
        height: h,
        value,
      };
    }),
  );
}

/**
 * A small bar chart drawn as SVG (no chart library): decorative to assistive technology, because
 * the same numbers are in the table next to it.
 */
export function barChart(series: readonly ChartSeries[], dayLabels: readonly string[]) {
  const bars = groupedBars(series);
  const max = niceMax(series.flatMap((s) => s.values));
  const group = WIDTH / Math.max(1, dayLabels.length);
  return svg`<svg viewBox="0 0 ${WIDTH} ${HEIGHT + 34}" width="100%" aria-hidden="true" focusable="false" class="chart">
    <line x1="0" y1=${HEIGHT} x2=${WIDTH} y2=${HEIGHT} stroke="var(--border)" />
    <text x="2" y="10" font-size="10" fill="var(--muted)">${max.toLocaleString()}</text>
    ${bars.map((row, index) =>
      row.map(
        (b) =>
          svg`<rect x=${b.x.toFixed(2)} y=${b.y.toFixed(2)} width=${b.width.toFixed(2)} height=${b.height.toFixed(2)} fill=${series[index]!.color} rx="1.5" />`,
      ),
    )}
    ${dayLabels.map((label, day) =>
      day % Math.ceil(dayLabels.length / 7) === 0
        ? svg`<text x=${(day * group + group / 2).toFixed(2)} y=${HEIGHT + 14} font-size="10" text-anchor="middle" fill="var(--muted)">${label}</text>`
        : null,
    )}
    ${series.map(
      (s, index) =>
        svg`<rect x=${index * 150} y=${HEIGHT + 22} width="10" height="10" fill=${s.color} /><text x=${index * 150 + 14} y=${HEIGHT + 31} font-size="10" fill="var(--text)">${s.label}</text>`,
    )}
  </svg>`;
}
