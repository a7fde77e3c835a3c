import './bulk.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import { Anchor, Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import type { ListChannel } from '@review-desk/shared/bulk';
import type { CountryCode } from 'libphonenumber-js/max';
import { useMemo, useState } from 'react';
import { withMantine } from '../../../app/mantine.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { countOf } from '../../../lib/format.ts';
import { Link, useSearchParams } from '../../../lib/router.tsx';
import { useSession } from '../../../lib/session.ts';
import { useCreateBulkSend } from '../api/create-bulk-send.ts';
import { useBulkSends } from '../api/get-bulk-sends.ts';
import { askAgainAt, contactHistory } from '../api/get-contact-history.ts';
import { CHANNEL_WORDS } from '../channel-words.ts';
import {
  checkFileSize,
  contactsOfRow,
  countryOptions,
  eachLimited,
  FIELD_LABELS,
  guessCountry,
  guessMapping,
  LIST_FIELDS,
  type ListField,
  type Mapping,
  numberFormat,
  type ParsedList,
  parseList,
  preflight,
  suggestedChannel,
  type ValidRow,
} from '../model.ts';
import { DailyCapField } from './daily-cap.tsx';
import { FilePicker } from './file-picker.tsx';
import { PastLists } from './past-lists.tsx';
import { PreflightSummary, RecentAlert } from './preflight-summary.tsx';
import { ProgressView } from './progress-view.tsx';

// "Send to a list": pick or drop a CSV/TSV, map its columns, see every row checked before
// anything is sent (errors in the send form's words, duplicates, contacts sent to recently),
// confirm with the count, then follow the job, which the dashboard server runs (closing the page
// does not stop it; its address, ?job=…, shows its progress again).

type Recent =
  | { state: 'idle' }
  | { state: 'checking'; done: number }
  | { state: 'checked'; lines: Map<number, number> };

function BulkSendPage({ title }: { title: string }) {
  const [params, setParams] = useSearchParams();
  const job = params.get('job');
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        lead={
          <>
            Send review requests to a list of customers from a CSV or TSV file.{' '}
            <Anchor component={Link} to={paths.send} size="sm">
              Send to one customer
            </Anchor>
          </>
        }
      />
      {job ? (
        <>
          <ProgressView id={job} />
          <Anchor component="button" type="button" size="sm" onClick={() => setParams({})}>
            Send to another list
          </Anchor>
        </>
      ) : (
        <>
          <ListForm onStarted={(id) => setParams({ job: id })} />
          <PastLists />
        </>
      )}
    </Stack>
  );
}

function ListForm({ onStarted }: { onStarted: (id: string) => void }) {
  const me = useSession();
  const capDays = me.settings.frequencyCapDays;
  const [fileName, setFileName] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [list, setList] = useState<ParsedList | null>(null);
  const [mapping, setMapping] = useState<Mapping | null>(null);
  const [channel, setChannel] = useState<ListChannel>('sms_or_email');
  const [country, setCountry] = useState<CountryCode>(guessCountry);
  const [recent, setRecent] = useState<Recent>({ state: 'idle' });
  const [dailyCap, setDailyCap] = useState<number | null>(null);
  // The server's time zone for a daily cap's days comes with the list of past list sends.
  const lists = useBulkSends();
  const create = useCreateBulkSend();
  const countryList = useMemo(countryOptions, []);

  const checked = useMemo(
    () => (list && mapping ? preflight(list, mapping, channel, country) : null),
    [list, mapping, channel, country],
  );

  async function read(file: File) {
    setFileName(file.name);
    setRecent({ state: 'idle' });
    const tooLarge = checkFileSize(file.size);
    if (tooLarge) {
      setFileError(tooLarge);
      setList(null);
      return;
    }
    const parsed = parseList(await file.text());
    if ('error' in parsed) {
      setFileError(parsed.error);
      setList(null);
      return;
    }
    const guessed = guessMapping(parsed.headers);
    setFileError(null);
    setList(parsed);
    setMapping(guessed);
    setChannel(suggestedChannel(guessed));
  }

  function remap(field: ListField, value: string) {
    setMapping((current) =>
      current ? { ...current, [field]: value === '' ? null : Number(value) } : current,
    );
    setRecent({ state: 'idle' });
  }

  async function checkRecent(rows: readonly ValidRow[]) {
    if (capDays === 0 || channel === 'link') {
      setRecent({ state: 'checked', lines: new Map() });
      return;
    }
    const lines = new Map<number, number>();
    setRecent({ state: 'checking', done: 0 });
    try {
      await eachLimited(
        rows,
        6,
        async (row) => {
          for (const contact of contactsOfRow(row.body)) {
            const at = askAgainAt(await contactHistory(contact), capDays);
            if (at !== null) lines.set(row.line, Math.max(at, lines.get(row.line) ?? 0));
          }
        },
        (done) => {
          if (done % 25 === 0) setRecent({ state: 'checking', done });
        },
      );
      setRecent({ state: 'checked', lines });
    } catch (error) {
      setRecent({ state: 'idle' });
      setFileError(
        `Recent requests could not be checked: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  // Every valid row goes to the server: one sent a request within the cap is skipped there (the
  // service would refuse it), and shows as skipped in the list's results.
  const toSend = checked && recent.state === 'checked' ? checked.valid : [];
  const expected =
    recent.state === 'checked' ? toSend.filter((row) => !recent.lines.has(row.line)).length : 0;

  function start() {
    if (expected === 0 || create.isPending) return;
    create.mutate(
      {
        channel,
        skipRecent: true,
        ...(dailyCap !== null ? { dailyCap } : {}),
        rows: toSend.map(({ body }) => ({
          ...(body.customerName ? { customerName: body.customerName } : {}),
          ...(body.customerPhone ? { customerPhone: body.customerPhone } : {}),
          ...(body.customerEmail ? { customerEmail: body.customerEmail } : {}),
        })),
      },
      { onSuccess: onStarted },
    );
  }

  return (
    <Stack gap="md">
      <FilePicker
        fileName={fileName}
        fileError={fileError}
        rows={list ? list.rows.length : null}
        onFile={(file) => void read(file)}
      />

      {list && mapping && checked && (
        <Paper withBorder p="lg" radius="md">
          <Stack gap="md">
            <Text fw={600}>Columns</Text>
            <Group gap="md" align="flex-end">
              {LIST_FIELDS.map((field) => (
                <NativeSelect
                  key={field}
                  label={`${FIELD_LABELS[field]} column`}
                  value={mapping[field] === null ? '' : String(mapping[field])}
                  onChange={(event) => remap(field, event.currentTarget.value)}
                  data={[
                    { value: '', label: '(none)' },
                    ...list.headers.map((header, i) => ({
                      value: String(i),
                      label: header || `Column ${i + 1}`,
                    })),
                  ]}
                />
              ))}
              <NativeSelect
                label="Send by"
                value={channel}
                onChange={(event) => {
                  setChannel(event.currentTarget.value as ListChannel);
                  setRecent({ state: 'idle' });
                }}
                data={CHANNEL_WORDS.map(([value, label]) => ({ value, label }))}
              />
              <NativeSelect
                label="Country of numbers without +"
                value={country}
                onChange={(event) => setCountry(event.currentTarget.value as CountryCode)}
                data={countryList}
              />
            </Group>

            <PreflightSummary
              checked={checked}
              capDays={capDays}
              recent={recent.state === 'checked' ? recent.lines.size : null}
            />

            {recent.state === 'checked' ? (
              <Stack gap="sm">
                <RecentAlert lines={recent.lines} capDays={capDays} />
                <DailyCapField
                  rows={expected}
                  value={dailyCap}
                  onChange={setDailyCap}
                  timeZone={lists.data?.timeZone ?? null}
                />
                {create.error && (
                  <div role="alert">
                    {create.error instanceof ApiError && create.error.status === 400 ? (
                      <Text c="var(--mantine-color-error)" size="sm">
                        The list was refused: {create.error.message}
                      </Text>
                    ) : (
                      <ErrorState error={create.error} />
                    )}
                  </div>
                )}
                <Group>
                  <Button onClick={start} loading={create.isPending} disabled={expected === 0}>
                    Send {countOf(expected, 'request', 'requests')}
                  </Button>
                  <Text size="sm" c="dimmed">
                    The dashboard server sends them one at a time, at the review service’s pace; you can close
                    this page.
                  </Text>
                </Group>
              </Stack>
            ) : (
              <Group>
                <Button
                  onClick={() => void checkRecent(checked.valid)}
                  loading={recent.state === 'checking'}
                  disabled={checked.valid.length === 0}
                >
                  Check recent requests
                </Button>
                {recent.state === 'checking' && (
                  <Text size="sm" c="dimmed">
                    Checked {numberFormat(recent.done)} of {numberFormat(checked.valid.length)}
                  </Text>
                )}
              </Group>
            )}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

export default withMantine(BulkSendPage);
