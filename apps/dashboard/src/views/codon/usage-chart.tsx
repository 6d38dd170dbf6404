/** Tokens (left axis) and cost (right axis) of one codon execution over time, from `usage`. */
import { useMemo } from 'preact/hooks';
import type uPlot from 'uplot';
import type { CodonDetail } from '../../api/types.js';
import {
  chartColors,
  TIME_AXIS_SPACE,
  timeAxisValues,
  UplotChart,
} from '../../components/uplot-chart.js';
import { formatTokens, formatUsd } from '../../format/format.js';
import { usageColumns } from './usage-columns.js';

export function UsageChart({ usage }: { usage: CodonDetail['usage'] }) {
  const data = useMemo(() => usageColumns(usage), [usage]);
  const options = useMemo((): Omit<uPlot.Options, 'width' | 'height'> => {
    const colors = chartColors();
    const axis = {
      stroke: colors.text,
      grid: { stroke: colors.grid, width: 1 },
      ticks: { stroke: colors.grid },
    };
    return {
      scales: { x: { time: true }, tokens: {}, usd: {} },
      axes: [
        { ...axis, values: timeAxisValues, space: TIME_AXIS_SPACE },
        { ...axis, scale: 'tokens', values: (_u, v) => v.map((n) => formatTokens(n)), size: 56 },
        {
          ...axis,
          scale: 'usd',
          side: 1,
          grid: { show: false },
          values: (_u, v) => v.map((n) => formatUsd(n)),
          size: 64,
        },
      ],
      series: [
        {},
        {
          label: 'input tokens',
          scale: 'tokens',
          stroke: colors.series[0],
          width: 2,
          value: (_u, v) => formatTokens(v),
        },
        {
          label: 'output tokens',
          scale: 'tokens',
          stroke: colors.series[2],
          width: 2,
          value: (_u, v) => formatTokens(v),
        },
        {
          label: 'cost',
          scale: 'usd',
          stroke: colors.series[1],
          width: 2,
          dash: [6, 4],
          value: (_u, v) => formatUsd(v),
        },
      ],
    };
  }, []);
  if ((data[0]?.length ?? 0) < 2) {
    return (
      <p class="muted">
        {usage.length === 1
          ? 'One usage report only: no curve to draw.'
          : 'No token usage recorded.'}
      </p>
    );
  }
  return <UplotChart options={options} data={data} testId="usage-chart" />;
}
