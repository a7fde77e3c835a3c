import { BarChart, LineChart } from '@mantine/charts';
import { Paper, Text, Title } from '@mantine/core';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { formatDate } from '../../../lib/format.ts';
import { MARKS, markAfterPaint } from '../../../lib/perf-marks.ts';
import type { channelRows, ratingRows, sourceRows, trendSeries } from '../model.ts';

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

export function RatingChart({ rows }: { rows: ReturnType<typeof ratingRows> }) {
  return (
    <ChartCard
      title="Rating distribution"
      caption="Reviews dated in the window, every platform."
      testId="chart-ratings"
      table={rows && { head: ['Rating', 'Reviews'], rows: rows.map((row) => [row.rating, row.reviews]) }}
    >
      {rows && (
        <BarChart
          h={220}
          data={rows}
          dataKey="rating"
          barChartProps={{ accessibilityLayer: false }}
          series={[{ name: 'reviews', label: 'Reviews', color: 'yellow.6' }]}
        />
      )}
    </ChartCard>
  );
}

export function ChannelChart({ rows }: { rows: ReturnType<typeof channelRows> }) {
  return (
    <ChartCard
      title="Requests by channel"
      testId="chart-channels"
      table={rows && { head: ['Channel', 'Requests'], rows: rows.map((row) => [row.channel, row.requests]) }}
    >
      {rows && (
        <BarChart
          h={220}
          data={rows}
          dataKey="channel"
          barChartProps={{ accessibilityLayer: false }}
          series={[{ name: 'requests', label: 'Requests', color: 'blue.6' }]}
        />
      )}
    </ChartCard>
  );
}

export function SourceChart({ rows }: { rows: ReturnType<typeof sourceRows> }) {
  return (
    <ChartCard
      title="Reviews: through requests vs synced"
      caption="Synced reviews are imported from external networks and are not counted in request figures."
      testId="chart-sources"
      table={rows && { head: ['Source', 'Reviews'], rows: rows.map((row) => [row.source, row.reviews]) }}
    >
      {rows && (
        <BarChart
          h={220}
          data={rows.map((row) => ({
            source: row.source,
            requested: row.synced ? 0 : row.reviews,
            synced: row.synced ? row.reviews : 0,
          }))}
          dataKey="source"
          type="stacked"
          barChartProps={{ accessibilityLayer: false }}
          series={[
            { name: 'requested', label: 'Through requests', color: 'teal.6' },
            { name: 'synced', label: 'Synced', color: 'grape.6' },
          ]}
        />
      )}
    </ChartCard>
  );
}
