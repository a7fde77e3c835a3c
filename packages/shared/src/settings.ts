import { holdsWebAddress } from './customer-name.ts';
import { formatClockTime, isValidTimeZone, parseClockTime, type SendWindow } from './quiet-hours.ts';
import { SETTINGS_FIELD_LABELS } from './settings-labels.ts';
import { type SmsSegmentInfo, smsSegments } from './sms-segments.ts';
import { z } from './zod.ts';

export { SETTINGS_FIELD_LABELS };

// A business's settings (GET/PUT /api/v1/settings, an extension of the API: docs/settings.md):
// the words of its review requests, the one automatic reminder, its sending hours and time zone,
// and the review site a happy customer is offered. One schema drives the API's validation and
// the dashboard's form; one renderer writes the SMS and email that leave the service and the
// preview the owner sees.
//
// Templates use named placeholders: {customer_name}, {business_name}, {review_link}. A customer
// given without a name reads the fallback: "there" unless the template says otherwise with
// {customer_name|friend}. The opt-out words are not part of a template: every SMS ends with
// SMS_OPT_OUT and every email with EMAIL_OPT_OUT, whatever the business writes.

export const PLACEHOLDERS = ['customer_name', 'business_name', 'review_link'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export const CUSTOMER_NAME_FALLBACK = 'there';
export const FALLBACK_MAX = 40;
/** An SMS (template with a sample name, the business's name, a real-length link and the opt-out words) may take at most this many segments. */
export const SMS_SEGMENTS_MAX = 3;
export const SMS_TEMPLATE_MAX = 1000;
export const EMAIL_SUBJECT_MAX = 200;
export const EMAIL_TEMPLATE_MAX = 5000;
export const REVIEW_SITE_URL_MAX = 2000;
export const REMINDER_AFTER_DAYS_MAX = 14;

export const SMS_OPT_OUT = 'Reply STOP to opt out.';
export const EMAIL_OPT_OUT =
  'If you would rather not hear from us again, the page behind the link lets you opt out.';

export const DEFAULT_SMS_TEMPLATE =
  'Hi {customer_name}, thanks for choosing {business_name}! How did we do? {review_link}';
export const DEFAULT_EMAIL_SUBJECT = 'How was your visit to {business_name}?';
export const DEFAULT_EMAIL_TEMPLATE = [
  'Hi {customer_name}, thanks for choosing {business_name}.',
  '',
  'Would you tell us how it went? It takes a minute:',
  '{review_link}',
  '',
  'Every answer is read, good or bad.',
].join('\n');

/** The values a message is written with. */
export type TemplateValues = { customerName: string | null; businessName: string; reviewLink: string };

/** What the SMS limit is checked with: the business's name and link length are known; the customer's name is not. */
export type TemplateContext = { businessName: string; reviewLink: string };

/** A name of ordinary length, for the segment check and the preview. */
export const SAMPLE_CUSTOMER_NAME = 'Alexandra Whitfield';
export const SAMPLE_CONTEXT: TemplateContext = {
  businessName: 'Your Business',
  reviewLink: `https://reviews.example.com/r/${'x'.repeat(43)}`,
};

type Token = { text: string } | { placeholder: string; fallback: string | null; raw: string };

// `{` … `}` with no brace inside is a placeholder; a lone brace is text.
const PLACEHOLDER = /\{([^{}]*)\}/g;

function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match.index > last) tokens.push({ text: template.slice(last, match.index) });
    const inner = match[1] as string;
    const bar = inner.indexOf('|');
    tokens.push(
      bar === -1
        ? { placeholder: inner.trim(), fallback: null, raw: match[0] }
        : { placeholder: inner.slice(0, bar).trim(), fallback: inner.slice(bar + 1).trim(), raw: match[0] },
    );
    last = match.index + match[0].length;
  }
  if (last < template.length) tokens.push({ text: template.slice(last) });
  return tokens;
}

const isPlaceholder = (name: string): name is Placeholder =>
  (PLACEHOLDERS as readonly string[]).includes(name);
const LIST = PLACEHOLDERS.map((name) => `{${name}}`).join(', ');

const LABEL = SETTINGS_FIELD_LABELS;

/** The first thing wrong with a template's placeholders, as a sentence naming the field (`field`: its label); or null. */
export function placeholderProblem(
  field: string,
  template: string,
  rules: { requireLink: boolean; allowLink: boolean },
): string | null {
  let hasLink = false;
  for (const token of tokenize(template)) {
    if ('text' in token) continue;
    const shown = `{${token.placeholder}${token.fallback === null ? '' : `|${token.fallback}`}}`;
    if (!isPlaceholder(token.placeholder)) {
      return `${field} has an unknown placeholder ${shown}: use ${LIST}`;
    }
    if (token.placeholder === 'review_link') {
      if (!rules.allowLink) return `${field} must not contain {review_link}: the link goes in the message`;
      hasLink = true;
    }
    if (token.fallback !== null) {
      if (token.placeholder !== 'customer_name') {
        return `${field}: only {customer_name} takes a fallback (${shown})`;
      }
      if (token.fallback.length === 0 || token.fallback.length > FALLBACK_MAX) {
        return `${field}: the fallback in ${shown} must be 1–${FALLBACK_MAX} characters`;
      }
      if (holdsWebAddress(token.fallback)) {
        return `${field}: the fallback in ${shown} must not be a web address`;
      }
    }
  }
  if (rules.requireLink && !hasLink) {
    return `${field} must contain {review_link}: it is how the customer reaches the review page`;
  }
  return null;
}

/** Writes a template with the values: one pass, so a name that reads "{review_link}" stays text. */
export function renderTemplate(template: string, values: TemplateValues): string {
  return tokenize(template)
    .map((token) => {
      if ('text' in token) return token.text;
      switch (token.placeholder) {
        case 'customer_name': {
          const name = values.customerName?.trim();
          return name ? name : (token.fallback ?? CUSTOMER_NAME_FALLBACK);
        }
        case 'business_name':
          return values.businessName;
        case 'review_link':
          return values.reviewLink;
        default:
          return token.raw; // refused by validation; written as typed if it ever gets here
      }
    })
    .join('');
}

export type MessageTemplates = { smsTemplate: string; emailSubject: string; emailTemplate: string };

/** The SMS as the customer receives it: the business's words, then the opt-out words. */
export function renderSms(templates: Pick<MessageTemplates, 'smsTemplate'>, values: TemplateValues): string {
  return `${renderTemplate(templates.smsTemplate, values).trim()} ${SMS_OPT_OUT}`;
}

/** The email as the customer receives it: a one-line subject; the body ends with the opt-out words. */
export function renderEmail(
  templates: Pick<MessageTemplates, 'emailSubject' | 'emailTemplate'>,
  values: TemplateValues,
): { subject: string; body: string } {
  const subject = renderTemplate(templates.emailSubject, values).replace(/\s+/g, ' ').trim();
  const body = `${renderTemplate(templates.emailTemplate, values).trimEnd()}\n\n${EMAIL_OPT_OUT}`;
  return { subject, body };
}

/** The SMS with a sample name, and its segment count: what the limit and the preview use. */
export function smsPreview(
  smsTemplate: string,
  context: TemplateContext,
  customerName: string | null = SAMPLE_CUSTOMER_NAME,
): { text: string; segments: SmsSegmentInfo } {
  const text = renderSms({ smsTemplate }, { ...context, customerName });
  return { text, segments: smsSegments(text) };
}

// ── The schema ────────────────────────────────────────────────────────────────────────────────

const CONTROL = /\p{Cc}/u; // tested with line breaks (\n, \r\n) taken out: bodies may have them
const LINE_BREAK = /[\r\n]/;

function templateText(field: string, max: number, opts: { singleLine: boolean }) {
  return z.string({ error: `${field} must be text` }).check(
    z.maxLength(max, { error: `${field} must be at most ${max} characters` }),
    z.refine((text) => text.trim().length > 0, { error: `${field} must not be empty` }),
    z.refine((text) => !CONTROL.test(text.replace(/\r?\n/g, '')), {
      error: `${field} must not contain control characters`,
    }),
    z.refine((text) => !opts.singleLine || !LINE_BREAK.test(text), {
      error: `${field} must be one line`,
    }),
  );
}

const clockTime = (field: string) =>
  /* @__PURE__ */ z.string({ error: `${field} must be a time as HH:MM` }).check(
    z.refine((text) => parseClockTime(text) !== null, {
      error: `${field} must be a time as HH:MM (24-hour, e.g. 08:00)`,
    }),
  );

/** The sending window: messages asked for outside [start, end) wait until it opens; null sends at any hour. */
export const quietHoursSchema = /* @__PURE__ */ z.nullable(
  z
    .strictObject({ start: clockTime(LABEL['quietHours.start']), end: clockTime(LABEL['quietHours.end']) })
    .check(
      z.refine((hours) => hours.start !== hours.end, {
        error: `${LABEL['quietHours.end']} must differ from ${LABEL['quietHours.start']} (or send at any hour)`,
        path: ['end'],
      }),
    ),
);
export type QuietHours = z.infer<typeof quietHoursSchema>;

export function quietHoursToWindow(hours: QuietHours): SendWindow | null {
  return hours
    ? { start: parseClockTime(hours.start) as number, end: parseClockTime(hours.end) as number }
    : null;
}

export function windowToQuietHours(window: SendWindow | null): QuietHours {
  return window ? { start: formatClockTime(window.start), end: formatClockTime(window.end) } : null;
}

const settingsShape = {
  smsTemplate: templateText(LABEL.smsTemplate, SMS_TEMPLATE_MAX, { singleLine: false }),
  emailSubject: templateText(LABEL.emailSubject, EMAIL_SUBJECT_MAX, { singleLine: true }),
  emailTemplate: templateText(LABEL.emailTemplate, EMAIL_TEMPLATE_MAX, { singleLine: false }),
  reminderAfterDays: z
    .number({ error: `${LABEL.reminderAfterDays} must be a whole number of days, 0 to 14` })
    .check(
      z.int({ error: `${LABEL.reminderAfterDays} must be a whole number of days, 0 to 14` }),
      z.gte(0, { error: `${LABEL.reminderAfterDays} must be none or after 1 to 14 days` }),
      z.lte(REMINDER_AFTER_DAYS_MAX, {
        error: `${LABEL.reminderAfterDays} must be none or after 1 to 14 days`,
      }),
    ),
  quietHours: quietHoursSchema,
  timeZone: z
    .string({ error: `${LABEL.timeZone} must be text` })
    .check(
      z.refine(isValidTimeZone, { error: `${LABEL.timeZone} must be a time zone such as Europe/London` }),
    ),
  reviewSiteUrl: z.nullable(
    z
      .url({
        protocol: /^https?$/,
        error: `${LABEL.reviewSiteUrl} must be a web address starting with https:// or http://, or empty`,
      })
      .check(
        z.maxLength(REVIEW_SITE_URL_MAX, {
          error: `${LABEL.reviewSiteUrl} must be at most ${REVIEW_SITE_URL_MAX} characters`,
        }),
      ),
  ),
};

/** The settings' fields and their own rules; `settingsSchemaFor` adds the checks across fields. */
export const settingsObjectSchema = /* @__PURE__ */ z.strictObject(settingsShape);
export type Settings = z.infer<typeof settingsObjectSchema>;
export const SETTINGS_FIELDS = Object.keys(settingsShape) as (keyof Settings)[];

/** The template rules: placeholders, the link, and the SMS's segment limit with this business's name and links. */
export function templateProblems(
  settings: Pick<Settings, 'smsTemplate' | 'emailSubject' | 'emailTemplate'>,
  context: TemplateContext = SAMPLE_CONTEXT,
): Partial<Record<'smsTemplate' | 'emailSubject' | 'emailTemplate', string>> {
  const problems: Partial<Record<'smsTemplate' | 'emailSubject' | 'emailTemplate', string>> = {};
  const sms = placeholderProblem(LABEL.smsTemplate, settings.smsTemplate, {
    requireLink: true,
    allowLink: true,
  });
  if (sms) problems.smsTemplate = sms;
  else {
    const info = smsPreview(settings.smsTemplate, context).segments;
    if (info.segments > SMS_SEGMENTS_MAX) {
      problems.smsTemplate = `${LABEL.smsTemplate} makes an SMS of ${info.segments} segments (${info.encoding}, ${info.units} of ${SMS_SEGMENTS_MAX * info.perSegment} ${info.encoding === 'GSM-7' ? 'characters' : 'units'} with the opt-out words); at most ${SMS_SEGMENTS_MAX} are allowed`;
    }
  }
  const subject = placeholderProblem(LABEL.emailSubject, settings.emailSubject, {
    requireLink: false,
    allowLink: false,
  });
  if (subject) problems.emailSubject = subject;
  const email = placeholderProblem(LABEL.emailTemplate, settings.emailTemplate, {
    requireLink: true,
    allowLink: true,
  });
  if (email) problems.emailTemplate = email;
  return problems;
}

/** The whole settings, checked for this business (its name and the length of its links). */
export function settingsSchemaFor(context: TemplateContext = SAMPLE_CONTEXT) {
  return settingsObjectSchema.check(
    z.superRefine((settings, ctx) => {
      for (const [field, message] of Object.entries(templateProblems(settings, context))) {
        ctx.addIssue({ code: 'custom', message, path: [field] });
      }
    }),
  );
}
