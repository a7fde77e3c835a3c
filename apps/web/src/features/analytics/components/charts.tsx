import './analytics.css';
import { BarChart, LineChart } from '@mantine/charts';
import { Paper, Text, Title } from '@mantine/core';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { formatDate } from '../../../lib/format.ts';
import { MARKS, markAfterPaint } from '../../../lib/perf-marks.ts';
import type { trendSeries } from '../model.ts';

/** A chart with its title, and the same numbers as a table for screen readers and keyboard users. */
function ChartCard({
  title,
  caption,
  testId,
  children,
  table,
}: {
  title: string;
  caption?: string;
  testId: string;
  children: ReactNode | null;
  table: { head: string[]; rows: (string | number)[][] } | null;
}) {
  const plot = useRef<HTMLDivElement>(null);
  const drawn = children !== null && table !== null;
  // The chart library draws its <svg> once it has measured its container, a render or more after
  // this one: mark when the svg is in the DOM.
  useLayoutEffect(() => {
    const element = plot.current;
    if (!drawn || !element) return;
    const done = () => markAfterPaint(MARKS.analyticsChart, { chart: testId });
    if (element.querySelector('svg')) {
      done();
      return;
    }
    const observer = new MutationObserver(() => {
      if (!element.querySelector('svg')) return;
      observer.disconnect();
      done();
    });
    observer.observe(element, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [drawn, testId]);
  return (
    <Paper withBorder p="md" radius="md" component="figure" className="chart-card" data-testid={testId}>
      <Title order={2} size="h4" component="figcaption">
        {title}
      </Title>
      {caption && (
        <Text size="xs" c="dimmed" mb="xs">
          {caption}
        </Text>
      )}
      {children && table ? (
        <>
          <div className="chart-card__plot" aria-hidden="true" ref={plot}>
            {children}
          </div>
          <details className="chart-card__table">
            <summary>Show as a table</summary>
            <table className="data-table data-table--plain">
              <thead>
                <tr>
                  {table.head.map((cell) => (
                    <th key={cell}>{cell}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row) => (
                  <tr key={String(row[0])}>
                    {row.map((cell, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                      <td key={i}>{cell}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      ) : (
        <Text size="sm" className="kpi__missing" data-missing="true">
          Not provided by this API
        </Text>
      )}
    </Paper>
  );
}

const SERIES_LABEL = { sent: 'Sent', completed: 'Completed' } as const;

export function TrendChart({ trend }: { trend: ReturnType<typeof trendSeries> }) {
  return (
    <ChartCard
      title="Daily requests: sent vs completed"
      caption="Completed includes private feedback and hand-offs to an external review site; it is not proof a review was published."
      testId="chart-trend"
      table={
        trend && {
          head: ['Date', ...trend.series.map((s) => SERIES_LABEL[s])],
          rows: trend.rows.map((row) => [formatDate(row.date), ...trend.series.map((s) => row[s] ?? '—')]),
        }
      }
    >
      {trend && (
        <LineChart
          h={240}
          data={trend.rows}
          dataKey="date"
          curveType="monotone"
          withDots={false}
          lineChartProps={{ accessibilityLayer: false }}
          xAxisProps={{ tickFormatter: (value: string) => value.slice(5) }}
          series={trend.series.map((key) => ({
            name: key,
            label: SERIES_LABEL[key],
            color: key === 'sent' ? 'blue.6' : 'teal.6',
          }))}
        />
      )}
    </ChartCard>
  );
}

type BarRow = Record<string, string | number | boolean>;

/**
 * A bar chart: its words, its table's columns (a row's field and its heading, in order; the first
 * is what each bar stands for) and its series; `bars` reshapes the rows when the bars stack parts.
 */
export type BarSpec = {
  title: string;
  caption?: string;
  testId: string;
  columns: Record<string, string>;
  stacked?: true;
  bars?: (rows: BarRow[]) => BarRow[];
  series: { name: string; label: string; color: string }[];
};

export function BarCard({ spec, rows }: { spec: BarSpec; rows: BarRow[] | null }) {
  const fields = Object.keys(spec.columns);
  const table = rows && {
    head: Object.values(spec.columns),
    rows: rows.map((row) => fields.map((field) => row[field] as string | number)),
  };
  return (
    <ChartCard title={spec.title} caption={spec.caption} testId={spec.testId} table={table}>
      {rows && (
        <BarChart
          h={220}
          data={spec.bars ? spec.bars(rows) : rows}
          dataKey={fields[0] as string}
          type={spec.stacked ? 'stacked' : 'default'}
          barChartProps={{ accessibilityLayer: false }}
          series={spec.series}
        />
      )}
    </ChartCard>
  );
}

export const RATING_BARS: BarSpec = {
  title: 'Rating distribution',
  caption: 'Reviews dated in the window, every platform.',
  testId: 'chart-ratings',
  columns: { rating: 'Rating', reviews: 'Reviews' },
  series: [{ name: 'reviews', label: 'Reviews', color: 'yellow.6' }],
};

export const CHANNEL_BARS: BarSpec = {
  title: 'Requests by channel',
  testId: 'chart-channels',
  columns: { channel: 'Channel', requests: 'Requests' },
  series: [{ name: 'requests', label: 'Requests', color: 'blue.6' }],
};

export const SOURCE_BARS: BarSpec = {
  title: 'Reviews: through requests vs synced',
  caption: 'Synced reviews are imported from external networks and are not counted in request figures.',
  testId: 'chart-sources',
  columns: { source: 'Source', reviews: 'Reviews' },
  stacked: true,
  bars: (rows) =>
    rows.map((row) => ({
      source: row.source as string,
      requested: row.synced ? 0 : (row.reviews as number),
      synced: row.synced ? (row.reviews as number) : 0,
    })),
  series: [
    { name: 'requested', label: 'Through requests', color: 'teal.6' },
    { name: 'synced', label: 'Synced', color: 'grape.6' },
  ],
};
