import './settings.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { fieldErrors } from '@review-desk/shared/envelope';
import {
  SETTINGS_FIELD_LABELS as LABEL,
  PLACEHOLDERS,
  REMINDER_AFTER_DAYS_MAX,
  SAMPLE_CUSTOMER_NAME,
  type Settings,
  settingsSchemaFor,
} from '@review-desk/shared/settings';
import type { SettingsResponse } from '@review-desk/shared/settings-api';
import { type ChangeEvent, type FormEvent, lazy, Suspense, useMemo, useState } from 'react';
import { withMantine } from '../../../app/mantine.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { LeaveGuard } from '../../../components/leave-guard.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { toast } from '../../../lib/toast.ts';
import { useSettings } from '../api/get-settings.ts';
import { useUpdateSettings } from '../api/update-settings.ts';
import { EmailPreview, SmsPreview } from './message-preview.tsx';
import { SendTest } from './send-test.tsx';

const GoogleConnection = lazy(() => import('./google-connection.tsx'));
const SavedRepliesEditor = lazy(() => import('./saved-replies-editor.tsx'));
// Its own chunk: the Settings page's first load stays within its budget (bench/budgets.json).
const IntegrationsSection = lazy(() => import('./integrations-section.tsx'));
/** Settings → Website widget: its own chunk, fetched once the page is drawn. */
const WebsiteWidget = lazy(() => import('./website-widget.tsx'));

// Owners word their review requests and see them as the customer will, set the one reminder,
// the sending hours and time zone, and the review site. Checked with the shared schema (the
// same words the service answers with) before anything is sent.

type Form = {
  smsTemplate: string;
  emailSubject: string;
  emailTemplate: string;
  reminderAfterDays: string;
  quietHoursOn: boolean;
  start: string;
  end: string;
  timeZone: string;
  reviewSiteUrl: string;
};

type Errors = Partial<Record<string, string>>;

// The words and the time zone are edited as they are; the other fields as the form's inputs hold them.
function toForm({ reminderAfterDays, quietHours, reviewSiteUrl, ...asIs }: Settings): Form {
  return {
    ...asIs,
    reminderAfterDays: String(reminderAfterDays),
    quietHoursOn: quietHours !== null,
    start: quietHours?.start ?? '08:00',
    end: quietHours?.end ?? '21:00',
    reviewSiteUrl: reviewSiteUrl ?? '',
  };
}

function fromForm({ reminderAfterDays, quietHoursOn, start, end, reviewSiteUrl, ...asIs }: Form): Settings {
  return {
    ...asIs,
    reminderAfterDays: Number(reminderAfterDays),
    quietHours: quietHoursOn ? { start, end } : null,
    reviewSiteUrl: reviewSiteUrl.trim() === '' ? null : reviewSiteUrl.trim(),
  };
}

function changedFields(before: Settings, after: Settings): Partial<Settings> {
  const changed: Partial<Record<keyof Settings, unknown>> = {};
  for (const key of Object.keys(after) as (keyof Settings)[]) {
    if (JSON.stringify(after[key]) !== JSON.stringify(before[key])) changed[key] = after[key];
  }
  return changed as Partial<Settings>;
}

const REMINDER_OPTIONS = [
  { value: '0', label: 'No reminder' },
  ...Array.from({ length: REMINDER_AFTER_DAYS_MAX }, (_, i) => ({
    value: String(i + 1),
    label: i === 0 ? 'After 1 day' : `After ${i + 1} days`,
  })),
];

function timeZones(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

export function SettingsForm({ answer }: { answer: SettingsResponse }) {
  const update = useUpdateSettings();
  const [form, setForm] = useState<Form>(() => toForm(answer.settings));
  // What was last saved (or loaded): the form differs from it while there are changes to lose.
  const [saved, setSaved] = useState<Form>(() => toForm(answer.settings));
  const dirty = JSON.stringify(form) !== JSON.stringify(saved);
  const [errors, setErrors] = useState<Errors>({});
  const [withoutName, setWithoutName] = useState(false);
  const zones = useMemo(() => timeZones(answer.settings.timeZone), [answer.settings.timeZone]);
  const set =
    <K extends keyof Form>(key: K) =>
    (value: Form[K]) =>
      setForm((f) => ({ ...f, [key]: value }));
  /** An input's value, change and error, bound to the form's `key` (its error named `errorKey`). */
  const input = (key: Exclude<keyof Form, 'quietHoursOn'>, errorKey: string = key) => ({
    value: form[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      set(key)(e.currentTarget.value),
    error: errors[errorKey],
  });

  const values = {
    customerName: withoutName ? null : SAMPLE_CUSTOMER_NAME,
    businessName: answer.preview.businessName,
    reviewLink: answer.preview.reviewLink,
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = settingsSchemaFor(answer.preview).safeParse(fromForm(form));
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error).fields);
      return;
    }
    setErrors({});
    // Only what the owner changed: a field left alone keeps following the service's default.
    update.mutate(changedFields(answer.settings, parsed.data), {
      onSuccess: (answered) => {
        setForm(toForm(answered.settings));
        setSaved(toForm(answered.settings));
        toast({ color: 'green', title: 'Settings saved', message: 'The next messages use them.' });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) setErrors(error.fields);
      },
    });
  };

  const quietError = errors['quietHours.start'] ?? errors['quietHours.end'] ?? errors.quietHours;

  return (
    <form onSubmit={submit} noValidate aria-label="Settings">
      <LeaveGuard when={dirty} what="the settings" />
      <Stack gap="lg">
        {update.error && !(update.error instanceof ApiError && update.error.fields) && (
          <ErrorState error={update.error} />
        )}
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              Messages
            </Title>
            <Text size="sm" c="dimmed">
              Placeholders: {PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}. A customer without a name reads
              “there”, or your own word: {'{customer_name|friend}'}. The opt-out words are always added.
            </Text>
            <div className="settings-messages">
              <Stack gap="sm">
                <Textarea label={LABEL.smsTemplate} rows={3} {...input('smsTemplate')} />
                <TextInput label={LABEL.emailSubject} {...input('emailSubject')} />
                <Textarea label={LABEL.emailTemplate} rows={7} {...input('emailTemplate')} />
              </Stack>
              <Stack gap="md">
                <Checkbox
                  label="Preview for a customer without a name"
                  checked={withoutName}
                  onChange={(e) => setWithoutName(e.currentTarget.checked)}
                />
                <SmsPreview template={form.smsTemplate} values={values} />
                <EmailPreview subject={form.emailSubject} template={form.emailTemplate} values={values} />
              </Stack>
            </div>
          </Stack>
        </Paper>

        <SendTest words={form} />

        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              Reminder and sending hours
            </Title>
            <NativeSelect
              label={LABEL.reminderAfterDays}
              description="One reminder, with the same words, to a customer who has neither opened the link nor opted out nor been sent another request since; within the sending hours."
              data={REMINDER_OPTIONS}
              {...input('reminderAfterDays')}
            />
            <Checkbox
              label="Send only during sending hours"
              description="A message asked for outside them waits until they open."
              checked={form.quietHoursOn}
              onChange={(e) => set('quietHoursOn')(e.currentTarget.checked)}
            />
            {form.quietHoursOn && (
              <Group align="flex-start">
                <TextInput
                  label={LABEL['quietHours.start']}
                  type="time"
                  {...input('start', 'quietHours.start')}
                />
                <TextInput label={LABEL['quietHours.end']} type="time" {...input('end', 'quietHours.end')} />
              </Group>
            )}
            {quietError && !errors['quietHours.start'] && !errors['quietHours.end'] && (
              <Text size="sm" c="red">
                {quietError}
              </Text>
            )}
            <NativeSelect label={LABEL.timeZone} data={zones} {...input('timeZone')} />
            <TextInput
              label={LABEL.reviewSiteUrl}
              description="Where a happy customer is offered to post a public review (optional)."
              placeholder="https://…"
              {...input('reviewSiteUrl')}
            />
          </Stack>
        </Paper>
        <Group>
          <Button type="submit" loading={update.isPending}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SettingsPage({ title }: { title: string }) {
  const settings = useSettings();
  const notOffered = settings.error instanceof ApiError && settings.error.code === 'settings_not_offered';
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        lead="The words of your review requests, the reminder, when messages may be sent, and your reviews on your website."
      />
      {notOffered && (
        <Alert color="blue" title="Managed by the review service" data-testid="settings-not-offered">
          The review service this dashboard is connected to does not offer these settings: message wording,
          sending hours and reminders are managed by that service.
        </Alert>
      )}
      {settings.error && !notOffered && (
        <ErrorState error={settings.error} onRetry={() => settings.refetch()} />
      )}
      {!settings.data && !settings.error && <Skeleton height={320} aria-label="Loading settings" />}
      {settings.data && <SettingsForm answer={settings.data} />}
      {settings.data && (
        <Suspense fallback={<Skeleton height={200} aria-label="Loading integrations" />}>
          <IntegrationsSection />
        </Suspense>
      )}
      <Suspense fallback={<Skeleton height={240} aria-label="Loading the website widget" />}>
        <WebsiteWidget />
      </Suspense>
      {/* Below the fold, each its own chunk. */}
      <Suspense fallback={null}>
        <GoogleConnection />
        <SavedRepliesEditor />
      </Suspense>
    </Stack>
  );
}

export default withMantine(SettingsPage);
