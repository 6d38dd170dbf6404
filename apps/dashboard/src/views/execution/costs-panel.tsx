/**
 * Costs per codon and per model as sorted bar lists (long codon names stay readable, and each row
 * carries its raw number), plus the cumulative cost over time as a uPlot line.
 */
import { useMemo } from 'preact/hooks';
import type uPlot from 'uplot';
import type { CodonBar, CostsWire } from '../../api/types.js';
import { ErrorPanel, Loading } from '../../components/feedback.js';
import {
  chartColors,
  TIME_AXIS_SPACE,
  timeAxisValues,
  UplotChart,
} from '../../components/uplot-chart.js';
import { Usd } from '../../components/values.js';
import { iterationOf } from '../../format/codon-label.js';
import { formatTokens, formatUsd } from '../../format/format.js';
import type { ApiState } from '../../hooks/use-api.js';
import { cumulativeCost, sharesOf } from './cost-series.js';

function BarList<T>(props: {
  title: string;
  testId: string;
  rowTestId: string;
  rows: { item: T; value: number; percent: number }[];
  label: (item: T) => string;
  /** The row's identity (a codon id, a model): two loop iterations share a label. */
  keyOf: (item: T) => string;
  /** What tells rows of the same label apart (a loop iteration `#1`): never cut off. */
  tag?: (item: T) => string;
  sub: (item: T) => string;
  dataAttr: (item: T) => Record<string, string>;
}) {
  return (
    <div class="bar-list" data-testid={props.testId}>
      <h4>{props.title}</h4>
      {props.rows.length === 0 && <p class="muted">Nothing spent yet.</p>}
      <ol>
        {props.rows.map((row) => (
          <li
            key={props.keyOf(row.item)}
            data-testid={props.rowTestId}
            {...props.dataAttr(row.item)}
          >
            <span
              class="bar-label"
              title={`${props.label(row.item)} ${props.tag?.(row.item) ?? ''}`}
            >
              <span class="bar-name" data-testid="bar-label-name">
                {props.label(row.item)}
                <span class="sub"> {props.sub(row.item)}</span>
              </span>
              {props.tag?.(row.item) && (
                <span class="bar-tag mono" data-testid="bar-label-tag">
                  {props.tag(row.item)}
                </span>
              )}
            </span>
            <span class="bar-track">
              {/* Width set through the CSSOM by Preact: allowed by the CSP, unlike a style attribute in HTML. */}
              <span class="bar-fill" style={{ width: `${row.percent}%` }} />
            </span>
            <Usd usd={row.value} />
          </li>
        ))}
      </ol>
    </div>
  );
}

export function CostsPanel({ costs, bars }: { costs: ApiState<CostsWire>; bars: CodonBar[] }) {
  const series = useMemo(() => cumulativeCost(bars), [bars]);
  const options = useMemo((): Omit<uPlot.Options, 'width' | 'height'> => {
    const colors = chartColors();
    const axis = {
      stroke: colors.text,
      grid: { stroke: colors.grid, width: 1 },
      ticks: { stroke: colors.grid },
    };
    return {
      legend: { show: false },
      scales: { x: { time: true } },
      axes: [
        { ...axis, values: timeAxisValues, space: TIME_AXIS_SPACE },
        { ...axis, values: (_u, values) => values.map((v) => formatUsd(v)), size: 64 },
      ],
      series: [
        {},
        {
          label: 'cost',
          stroke: colors.series[0],
          width: 2,
          fill: `${colors.series[0]}22`,
          value: (_u, v) => formatUsd(v),
        },
      ],
    };
  }, []);

  if (costs.error !== undefined) return <ErrorPanel error={costs.error} onRetry={costs.reload} />;
  if (costs.data === undefined) return <Loading what="costs" />;
  const data = costs.data;
  return (
    <section class="panel costs" data-testid="costs">
      <div class="toolbar">
        <h3>Costs</h3>
        <span class="spacer" />
        total <Usd usd={data.totalUsd} testId="costs-total" />
      </div>
      <div class="costs-grid">
        <BarList
          title="Per codon"
          testId="costs-by-codon"
          rowTestId="cost-codon-row"
          rows={sharesOf(data.byCodon, (row) => row.costUsd)}
          label={(row) => row.name || row.codonId}
          keyOf={(row) => row.codonId}
          tag={(row) => iterationOf(row.codonId)}
          sub={(row) => (row.runs > 1 ? `${row.codonId} · ${row.runs} runs` : row.codonId)}
          dataAttr={(row) => ({ 'data-codon-id': row.codonId, 'data-usd': String(row.costUsd) })}
        />
        <BarList
          title="Per model"
          testId="costs-by-model"
          rowTestId="cost-model-row"
          rows={sharesOf(data.byModel, (row) => row.costUsd)}
          label={(row) => row.model}
          keyOf={(row) => row.model}
          sub={(row) =>
            `${formatTokens(row.inputTokens)} in · ${formatTokens(row.outputTokens)} out`
          }
          dataAttr={(row) => ({ 'data-model': row.model, 'data-usd': String(row.costUsd) })}
        />
      </div>
      {series[0].length > 1 && (
        <>
          <h4>Cumulative cost</h4>
          <UplotChart options={options} data={series} testId="cost-chart" height={160} />
        </>
      )}
    </section>
  );
}
