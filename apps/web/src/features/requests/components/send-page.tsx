import './send.css';
import '@mantine/core/styles/FloatingIndicator.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '../../../components/overlays.css';
import '@mantine/core/styles/List.layer.css';
import { Anchor, Button, Paper, Stack, Text } from '@mantine/core';
import type { SendRequest, SendResult } from '@review-desk/shared/send';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { withMantine } from '../../../app/mantine.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { Link } from '../../../lib/router.tsx';
import { useSession } from '../../../lib/session.ts';
import { sendsQueryOptions } from '../api/get-sends.ts';
import { useSendReviewRequest } from '../api/send-request.ts';
import {
  classifySendFailure,
  contactsOf,
  defaultCountry,
  fingerprint,
  initialSendValues,
  recentSends,
  rememberCountry,
  SEND_FIELDS,
  type SendField,
  type SendFieldErrors,
  type SendFormValues,
  validateSend,
} from '../send-form-model.ts';
import { OutcomeUnknown } from './outcome-unknown.tsx';
import { type RecentCheck, RecentRequestDialog } from './recent-request-dialog.tsx';
import { SendForm } from './send-form.tsx';
import { SendResultPanel } from './send-result.tsx';

type Phase =
  | { kind: 'editing' }
  | { kind: 'checking' }
  | { kind: 'confirm'; check: RecentCheck; body: SendRequest }
  | { kind: 'sending'; body: SendRequest }
  | { kind: 'sent'; result: SendResult; replayed: boolean; body: SendRequest }
  | { kind: 'unknown'; error: unknown; body: SendRequest }
  | { kind: 'refused'; error: unknown; body: SendRequest };

function SendPage({ title }: { title: string }) {
  const me = useSession();
  const capDays = me.settings.frequencyCapDays;
  const queryClient = useQueryClient();
  const send = useSendReviewRequest();
  const [values, setValues] = useState<SendFormValues>(() => initialSendValues(defaultCountry()));
  const [touched, setTouched] = useState<ReadonlySet<SendField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<SendFieldErrors>({});
  const [phase, setPhase] = useState<Phase>({ kind: 'editing' });
  /** The current intent: its key is reused only for the same body while the outcome is unknown. */
  const intent = useRef<{ key: string; fingerprint: string } | null>(null);
  /** Set synchronously, before any re-render: a double click cannot start two submissions. */
  const inFlight = useRef(false);

  const validation = useMemo(() => validateSend(values), [values]);
  const errors: SendFieldErrors = {};
  for (const field of SEND_FIELDS) {
    const message = (!validation.ok && validation.errors[field]) || serverErrors[field];
    if (message && (submitted || touched.has(field) || serverErrors[field])) errors[field] = message;
  }

  function change(update: Partial<SendFormValues>) {
    if (update.phoneCountry) rememberCountry(update.phoneCountry);
    setValues((current) => ({ ...current, ...update }));
    setServerErrors({});
    if (phase.kind === 'refused') setPhase({ kind: 'editing' });
  }

  async function checkRecent(body: SendRequest): Promise<RecentCheck> {
    // FREQUENCY_CAP_DAYS=0: no cap, so nothing to warn about.
    if (capDays === 0) return { recent: [], checkError: null };
    try {
      const pages = await Promise.all(
        contactsOf(body).map((contact) =>
          queryClient.fetchQuery({ ...sendsQueryOptions({ page: 1, limit: 20, contact }), staleTime: 0 }),
        ),
      );
      return {
        recent: recentSends(
          pages.flatMap((page) => page.sends),
          capDays,
        ),
        checkError: null,
      };
    } catch (error) {
      return { recent: [], checkError: error };
    }
  }

  async function deliver(body: SendRequest) {
    const key = intent.current?.key ?? newIdempotencyKey();
    intent.current = { key, fingerprint: fingerprint(body) };
    inFlight.current = true;
    setPhase({ kind: 'sending', body });
    try {
      const { result, replayed } = await send.mutateAsync({ body, idempotencyKey: key });
      setPhase({ kind: 'sent', result, replayed, body });
    } catch (error) {
      if (classifySendFailure(error) === 'unknown') {
        setPhase({ kind: 'unknown', error, body });
      } else {
        // A definite refusal: nothing went out, so the next attempt is a new intent.
        intent.current = null;
        if (error instanceof ApiError && error.fields) setServerErrors(error.fields);
        setPhase({ kind: 'refused', error, body });
      }
    } finally {
      inFlight.current = false;
    }
  }

  async function submit() {
    if (inFlight.current) return;
    setSubmitted(true);
    if (!validation.ok) {
      const first = SEND_FIELDS.find((field) => validation.errors[field]);
      if (first) document.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    const body = validation.body;
    const sameIntent = intent.current?.fingerprint === fingerprint(body);
    if (!sameIntent) intent.current = { key: newIdempotencyKey(), fingerprint: fingerprint(body) };
    // Retrying the same submission skips the check: the earlier attempt is what it would find.
    if (sameIntent || body.channel === 'link') return deliver(body);
    inFlight.current = true;
    setPhase({ kind: 'checking' });
    const check = await checkRecent(body);
    inFlight.current = false;
    if (check.recent.length > 0 || check.checkError) setPhase({ kind: 'confirm', check, body });
    else await deliver(body);
  }

  /** A review link for the same customer instead: it messages nobody, so no cap applies. */
  function linkInstead(body: SendRequest) {
    if (inFlight.current) return;
    intent.current = null;
    void deliver({ channel: 'link', ...(body.customerName ? { customerName: body.customerName } : {}) });
  }

  function startAnother() {
    intent.current = null;
    setValues((current) => ({ ...initialSendValues(current.phoneCountry), channel: current.channel }));
    setTouched(new Set());
    setSubmitted(false);
    setServerErrors({});
    setPhase({ kind: 'editing' });
  }

  const pending = phase.kind === 'checking' || phase.kind === 'sending';
  const contact =
    'body' in phase ? (phase.body.customerPhone ?? phase.body.customerEmail ?? undefined) : undefined;

  return (
    <Stack gap="md" className="narrow-page">
      <PageHeader
        title={title}
        lead={
          <>
            Ask a customer for a review by SMS, email or both, or create a link to share.{' '}
            <Anchor component={Link} to={paths.requests} size="sm">
              Recent requests
            </Anchor>
            {' · '}
            <Anchor component={Link} to={paths.bulk} size="sm">
              Send to a list
            </Anchor>
          </>
        }
      />
      {phase.kind === 'sent' ? (
        <SendResultPanel
          result={phase.result}
          replayed={phase.replayed}
          contact={contact}
          onAnother={startAnother}
        />
      ) : phase.kind === 'unknown' ? (
        <OutcomeUnknown
          error={phase.error}
          contact={contact}
          pending={send.isPending}
          onRetrySame={() => {
            if (!inFlight.current) void deliver(phase.body);
          }}
          onStartOver={() => {
            intent.current = null;
            setPhase({ kind: 'editing' });
          }}
        />
      ) : (
        <Paper withBorder p="lg" radius="md">
          <Stack gap="md">
            {phase.kind === 'refused' && (
              <div data-testid="send-refused">
                {phase.error instanceof ApiError && phase.error.status === 400 ? (
                  <Stack gap="xs" align="flex-start">
                    <Text c="var(--mantine-color-error)" size="sm" role="alert">
                      The service refused the request: {phase.error.message}
                    </Text>
                    {phase.error.code === 'frequency_capped' && (
                      <Button size="xs" onClick={() => linkInstead(phase.body)}>
                        Create a review link instead
                      </Button>
                    )}
                  </Stack>
                ) : (
                  <ErrorState error={phase.error} onRetry={() => void submit()} />
                )}
              </div>
            )}
            <SendForm
              values={values}
              errors={errors}
              pending={pending}
              pendingLabel={phase.kind === 'checking' ? 'Checking recent requests' : 'Sending'}
              onChange={change}
              onBlur={(field) => setTouched((current) => new Set(current).add(field))}
              onSubmit={() => void submit()}
            />
          </Stack>
        </Paper>
      )}
      <RecentRequestDialog
        check={phase.kind === 'confirm' ? phase.check : null}
        capDays={capDays}
        onCancel={() => {
          intent.current = null;
          setPhase({ kind: 'editing' });
        }}
        onSend={() => {
          if (phase.kind === 'confirm' && !inFlight.current) void deliver(phase.body);
        }}
        onLink={() => {
          if (phase.kind === 'confirm') linkInstead(phase.body);
        }}
      />
    </Stack>
  );
}

export default withMantine(SendPage);
