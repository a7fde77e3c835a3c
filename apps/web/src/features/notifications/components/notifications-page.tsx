import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Radio,
  Skeleton,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import {
  type AlertPreferences,
  alertPreferencesSchema,
  type PreferencesReply,
} from '@review-desk/shared/alerts';
import { RATING_MAX, RATING_MIN } from '@review-desk/shared/limits';
import { useMemo, useState } from 'react';
import { withMantine } from '../../../app/mantine.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { describeError } from '../../../lib/describe-error.ts';
import { toast } from '../../../lib/toast.ts';
import { usePreferences } from '../api/get-preferences.ts';
import { useUpdatePreferences } from '../api/update-preferences.ts';

// The Notifications page: each user's own alerts on low ratings (on/off, threshold, email or the
// bell only) and the weekly digest. The shared schema checks the form before it is sent; the BFF
// checks it again.

function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

function zones(current: string): string[] {
  let all: string[] = [];
  try {
    all = Intl.supportedValuesOf('timeZone');
  } catch {
    // an old browser: the saved and the browser's zone only
  }
  return [...new Set(['UTC', current, browserZone(), ...all])].sort();
}

const thresholdLabel = (n: number) => (n === RATING_MIN ? '1★ only' : `${n}★ or lower`);

function PreferencesForm({ reply }: { reply: PreferencesReply }) {
  const saved = reply.preferences;
  // Never set up: start from this browser's time zone rather than UTC.
  const fresh = reply.saved === false;
  const [form, setForm] = useState<AlertPreferences>({
    ...saved,
    timeZone: fresh ? browserZone() : saved.timeZone,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useUpdatePreferences();
  const zoneOptions = useMemo(() => zones(form.timeZone), [form.timeZone]);
  const set = (change: Partial<AlertPreferences>) => setForm((f) => ({ ...f, ...change }));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = alertPreferencesSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: () => toast({ color: 'green', message: 'Notification settings saved.' }),
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={560}>
        {!reply.emailConfigured && (
          <Alert
            color="yellow"
            variant="light"
            title="Email is not configured"
            data-testid="email-not-configured"
          >
            This server has no mail server set up (BFF_SMTP_URL), so alerts appear in the bell only and no
            weekly digest is sent.
          </Alert>
        )}
        {reply.devOutbox && (
          <Alert color="blue" variant="light" title="Development outbox" data-testid="dev-outbox">
            This server keeps emails on its development outbox page (/dev/outbox.json) instead of sending
            them.
          </Alert>
        )}
        <Switch
          label="Alert me about low ratings"
          description="A new review at or below the threshold raises an alert within minutes. Reviews already there when you turn this on never do."
          checked={form.enabled}
          onChange={(e) => set({ enabled: e.currentTarget.checked })}
        />
        <NativeSelect
          label="Threshold"
          value={String(form.threshold)}
          onChange={(e) => set({ threshold: Number(e.currentTarget.value) })}
          data={Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => ({
            value: String(RATING_MIN + i),
            label: thresholdLabel(RATING_MIN + i),
          }))}
          error={errors.threshold}
          disabled={!form.enabled}
        />
        <Radio.Group
          label="Where"
          value={form.channel}
          onChange={(value) => set({ channel: value as AlertPreferences['channel'] })}
          error={errors.channel}
        >
          <Group mt={4}>
            <Radio
              value="email"
              label="Email and the bell"
              disabled={!form.enabled || !reply.emailConfigured}
            />
            <Radio value="in_app" label="The bell only" disabled={!form.enabled} />
          </Group>
        </Radio.Group>
        <Checkbox
          label="Weekly digest by email"
          description={
            reply.digestAllowed
              ? 'Monday 08:00 in your time zone: the week’s requests, completion rate, new reviews, average rating and the low ratings still waiting for a response.'
              : 'The digest shows analytics, which your role cannot read.'
          }
          checked={form.digest}
          onChange={(e) => set({ digest: e.currentTarget.checked })}
          disabled={!reply.digestAllowed || !reply.emailConfigured}
        />
        <NativeSelect
          label="Time zone"
          description="When the weekly digest arrives."
          value={form.timeZone}
          onChange={(e) => set({ timeZone: e.currentTarget.value })}
          data={zoneOptions}
          error={errors.timeZone}
        />
        {update.error && (
          <Text c="red" size="sm" role="alert">
            {(() => {
              const d = describeError(update.error);
              return d.detail ?? d.title;
            })()}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function NotificationsPage({ title }: { title: string }) {
  const preferences = usePreferences();
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        lead="Hear about low ratings as they arrive, and get a summary of the week."
      />
      {preferences.error && <ErrorState error={preferences.error} onRetry={() => preferences.refetch()} />}
      {!preferences.data && !preferences.error && (
        <Skeleton height={320} aria-label="Loading notification settings" />
      )}
      {preferences.data && <PreferencesForm reply={preferences.data} />}
    </Stack>
  );
}

export default withMantine(NotificationsPage);
