/**
 * A uPlot chart that follows its container's width. uPlot draws on canvas and styles its own
 * elements through the CSSOM (allowed by the CSP); its stylesheet is bundled by Vite.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisTimeLabel } from '../format/format.js';
import { useElementWidth } from '../hooks/use-element-width.js';

/**
 * x-axis labels for time charts: our formats instead of uPlot's `:59.080`-style ticks, seconds
 * since the start for a short span (see `axisTimeLabel`). The labels drawn and the smallest gap
 * between ticks in pixels are kept on the chart's element (`data-x-labels`, `data-x-gap`), since
 * the canvas cannot be read.
 */
export function timeAxisValues(u: uPlot, splits: number[]): string[] {
  const min = u.scales.x?.min ?? 0;
  const span = (u.scales.x?.max ?? 0) - min;
  const step = splits.length > 1 ? (splits[1] as number) - (splits[0] as number) : span;
  const labels = splits.map((seconds) => axisTimeLabel(seconds, span, min, step));
  const holder = u.root.parentElement;
  if (holder) {
    const xs = splits.map((seconds) => u.valToPos(seconds, 'x'));
    const gaps = xs.slice(1).map((x, index) => x - (xs[index] as number));
    holder.dataset.xLabels = JSON.stringify(labels);
    holder.dataset.xGap = String(gaps.length > 0 ? Math.round(Math.min(...gaps)) : 0);
  }
  return labels;
}

/** Space between time ticks: room for `00:00:00` (or `11-24 14:03`) and a gap. */
export const TIME_AXIS_SPACE = 90;

/** Chart colours from the page's CSS variables, so charts follow light and dark mode. */
export function chartColors(): { text: string; grid: string; series: string[] } {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--muted', '#666'),
    grid: read('--grid', '#ddd'),
    series: [
      read('--chart-1', '#3b82f6'),
      read('--chart-2', '#f59e0b'),
      read('--chart-3', '#10b981'),
    ],
  };
}

export function UplotChart({
  options,
  data,
  testId,
  height = 180,
}: {
  /** Everything but width and height. */
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  testId: string;
  height?: number;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot>();
  const width = useElementWidth(holder);

  useEffect(() => {
    const element = holder.current;
    if (element === null || width === 0) return;
    chart.current = new uPlot({ ...options, width, height }, data, element);
    return () => {
      chart.current?.destroy();
      chart.current = undefined;
    };
    // A new chart only when the options change; data and size update the existing one below.
  }, [options, width === 0]);

  useEffect(() => chart.current?.setData(data), [data]);
  useEffect(() => {
    if (width > 0) chart.current?.setSize({ width, height });
  }, [width, height]);

  return (
    <div
      class="chart"
      ref={holder}
      data-testid={testId}
      data-points={String(data[0]?.length ?? 0)}
    />
  );
}
