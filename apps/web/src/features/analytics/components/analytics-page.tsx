import './analytics.css';
import '@mantine/core/styles/FloatingIndicator.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '../../../components/overlays.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/charts/styles.layer.css';
import { Alert, Button, Group, SegmentedControl, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { analyticsQuerySchema } from '@review-desk/shared/analytics';
import { DAYS_MAX, DAYS_MIN } from '@review-desk/shared/limits';
import { type FormEvent, useEffect, useState } from 'react';
import { withMantine } from '../../../app/mantine.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useSearchParams } from '../../../lib/router.tsx';
import { useAnalytics } from '../api/get-analytics.ts';
import {
  channelRows,
  kpis,
  parseDays,
  ratingRows,
  sourceRows,
  trendSeries,
  WINDOW_PRESETS,
} from '../model.ts';
import { BarCard, CHANNEL_BARS, RATING_BARS, SOURCE_BARS, TrendChart } from './charts.tsx';
import { KpiTiles } from './kpi-tiles.tsx';

const CUSTOM = 'custom';

function WindowPicker({ days, onDays }: { days: number; onDays: (days: number) => void }) {
  const preset = (WINDOW_PRESETS as readonly number[]).includes(days);
  const [custom, setCustom] = useState(!preset);
  const [text, setText] = useState(String(days));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setText(String(days));
    if (!(WINDOW_PRESETS as readonly number[]).includes(days)) setCustom(true);
  }, [days]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    // The shared schema's own rule and message (days 1 to 365).
    const parsed = analyticsQuerySchema.safeParse({ days: text.trim() });
    if (!parsed.success) {
      setError(
        parsed.error.issues[0]?.message ?? `days must be a whole number from ${DAYS_MIN} to ${DAYS_MAX}`,
      );
      return;
    }
    setError(null);
    onDays(parsed.data.days);
  };

  return (
    <div className="window-picker">
      <SegmentedControl
        aria-label="Time window"
        value={custom ? CUSTOM : String(days)}
        onChange={(value) => {
          if (value === CUSTOM) {
            setCustom(true);
            return;
          }
          setCustom(false);
          setError(null);
          onDays(Number(value));
        }}
        data={[
          ...WINDOW_PRESETS.map((preset) => ({ value: String(preset), label: `${preset} days` })),
          { value: CUSTOM, label: 'Custom' },
        ]}
      />
      {custom && (
        <form onSubmit={apply} className="window-picker__custom">
          <TextInput
            label="Days (1–365)"
            inputMode="numeric"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            error={error}
            w={140}
          />
          <Button type="submit" variant="default">
            Apply
          </Button>
        </form>
      )}
    </div>
  );
}

function AnalyticsPage({ title }: { title: string }) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('days');
  const { days, correction } = parseDays(raw);
  const [notice, setNotice] = useState<string | null>(null);
  const analytics = useAnalytics(days);

  useEffect(() => {
    if (raw === null || raw === String(days)) return;
    if (correction) setNotice(correction);
    setParams({ days: String(days) }, { replace: true });
  }, [raw, days, correction, setParams]);

  const data = analytics.data;
  const busy = analytics.isFetching && analytics.isPlaceholderData;
  const windowText =
    data?.from && data.to
      ? `${formatDate(data.from)} – ${formatDate(data.to)} (UTC days, today included)`
      : null;

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        lead="Review requests and reviews over a window of days. No figure here proves that a review was published."
      />
      <WindowPicker
        days={days}
        onDays={(next) => {
          setNotice(null);
          setParams({ days: String(next) });
        }}
      />
      {notice && (
        <Alert
          color="blue"
          title="The address was corrected"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(null)}
        >
          {notice}.
        </Alert>
      )}
      {analytics.error && <ErrorState error={analytics.error} onRetry={() => analytics.refetch()} />}
      {!data && !analytics.error && (
        <div className="kpi-grid" aria-busy="true">
          <span className="visually-hidden">Loading analytics</span>
          {Array.from({ length: 7 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
            <Skeleton key={i} height={96} />
          ))}
        </div>
      )}
      {data && (
        <div className={busy ? 'is-refreshing' : undefined} aria-busy={busy}>
          <Stack gap="md">
            <Group justify="space-between" gap="xs">
              <Text size="sm" c="dimmed" data-testid="analytics-window">
                Last {data.rangeDays ?? days} days{windowText ? `: ${windowText}` : ''}
              </Text>
            </Group>
            <KpiTiles kpis={kpis(data)} />
            <div className="chart-grid">
              <TrendChart trend={trendSeries(data)} />
              <BarCard spec={RATING_BARS} rows={ratingRows(data)} />
              <BarCard spec={CHANNEL_BARS} rows={channelRows(data)} />
              <BarCard spec={SOURCE_BARS} rows={sourceRows(data)} />
            </div>
          </Stack>
        </div>
      )}
    </Stack>
  );
}

export default withMantine(AnalyticsPage);
