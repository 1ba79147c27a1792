import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { DailyRow } from '../api/types';
import { usd } from '../format';

// Distinct hues that read on light and dark backgrounds.
const palette = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#65a30d'];

/** The days (UTC) from `firstDay` to `lastDay` as Unix seconds of their midnights. */
function daysBetween(firstDay: string, lastDay: string): number[] {
  const days: number[] = [];
  for (let day = Date.parse(`${firstDay}T00:00:00Z`); day <= Date.parse(`${lastDay}T00:00:00Z`); day += 86_400_000) days.push(day / 1000);
  return days;
}

/** The rows as uPlot's columns: the days, then one series per model of its spend in USD. */
export function chartColumns(rows: readonly DailyRow[], firstDay: string, lastDay: string, quotaPerUsd: number): { days: number[]; models: string[]; series: number[][] } {
  const days = daysBetween(firstDay, lastDay);
  const models = [...new Set(rows.map((row) => row.model_name))].sort();
  const series = models.map((model) =>
    days.map((day) => {
      const iso = new Date(day * 1000).toISOString().slice(0, 10);
      return rows.filter((row) => row.model_name === model && row.day === iso).reduce((sum, row) => sum + row.quota, 0) / quotaPerUsd;
    }),
  );
  return { days, models, series };
}

/**
 * Quota spent per day by model, in USD, drawn by uPlot on a canvas. uPlot sizes and places its
 * parts through the CSSOM (`element.style`), which the console's CSP allows; it writes no
 * inline style attribute or `<style>` element.
 */
export function QuotaChart(props: { rows: readonly DailyRow[]; firstDay: string; lastDay: string; quotaPerUsd: number }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (element === null) return;
    const { days, models, series } = chartColumns(props.rows, props.firstDay, props.lastDay, props.quotaPerUsd);
    const width = () => Math.max(280, element.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 260,
        // The days are UTC days (the log API's), so the axis reads them in UTC too.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, y: { range: (_self, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [{}, { values: (_self, ticks) => ticks.map((tick) => usd(tick)), size: 70 }],
        series: [
          { label: 'Day', value: (_self, value) => (value === null ? '' : new Date(value * 1000).toISOString().slice(0, 10)) },
          ...models.map((model, index) => ({
            label: model,
            stroke: palette[index % palette.length],
            fill: `${palette[index % palette.length]}22`,
            width: 2,
            points: { show: true, size: 6 },
            value: (_self: uPlot, value: number | null) => (value === null ? '' : usd(value)),
          })),
        ],
      },
      [days, ...series],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 260 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [props.rows, props.firstDay, props.lastDay, props.quotaPerUsd]);
  return <div class="chart" ref={holder} role="img" aria-label="Quota spent per day by model, in US dollars" />;
}
