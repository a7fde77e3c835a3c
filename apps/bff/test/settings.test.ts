import {
  SAMPLE_CUSTOMER_NAME,
  SMS_OPT_OUT,
  settingsResponseSchema,
  settingsTestResultSchema,
  TEST_SENDS_PER_HOUR,
} from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { addUser, startBff, type TestBff } from './support/bff.ts';
import { type DashboardClient, expectFailure } from './support/client.ts';
import { type DemoApi, startDemoApi } from './support/demo-api.ts';

// /bff/settings in front of the real API (both real processes): owners read and change the
// business's settings, a send then uses the new words; managers and staff are refused before
// anything goes upstream; an upstream without the extension is named as such.

let api: DemoApi;
let bff: TestBff;
let owner: DashboardClient;
let manager: DashboardClient;
let staff: DashboardClient;
let bare: FakeUpstream;
let bareBff: TestBff;

beforeAll(async () => {
  api = await startDemoApi('bff-settings-', { FREQUENCY_CAP_DAYS: '0' });
  bare = await startFakeUpstream();
  [bff, bareBff] = await Promise.all([startBff(api.url, api.keyFromFile), startBff(bare.url)]);
  owner = await bff.owner();
  const member = (role: string) =>
    addUser(bff, owner, { email: `${role}@example.com`, password: `${role}-password-long-enough`, role });
  manager = await member('manager');
  staff = await member('staff');
});

afterAll(async () => {
  await Promise.all([bff?.stop(), bareBff?.stop()]);
  await bare?.close();
  await api?.stop();
});

const put = (client: DashboardClient, body: unknown, options: { csrf?: boolean } = {}) =>
  client.request('PUT', '/bff/settings', { body, ...options });

describe('/bff/settings', () => {
  it('an owner reads the settings and changes the SMS template; the next send uses the new words', async () => {
    const read = await owner.get('/bff/settings');
    expect(read.status).toBe(200);
    const before = settingsResponseSchema.parse(read.json.data);
    expect(before.settings.smsTemplate).toContain('{review_link}');

    const template = 'Thanks from {business_name}, {customer_name|friend}! Two taps: {review_link}';
    const changed = await put(owner, { smsTemplate: template });
    expect(changed.status).toBe(200);
    expect(settingsResponseSchema.parse(changed.json.data).settings.smsTemplate).toBe(template);

    const phone = '+14155550123';
    const sent = await owner.send({ customerName: 'Ana', customerPhone: phone });
    expect(sent.status).toBe(200);
    const [message] = await api.outbox(phone);
    expect(message!.body).toBe(
      `Thanks from ${before.preview.businessName}, Ana! Two taps: ${sent.json.data.reviewLink} ${SMS_OPT_OUT}`,
    );
  });

  it('refuses a template without the link at the BFF, naming the field, with the shared words', async () => {
    const refused = await put(owner, { smsTemplate: 'Thanks from {business_name}!', reminderAfterDays: 99 });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('validation_failed');
    expect(refused.json.fields.reminderAfterDays).toMatch(/none or after 1 to 14 days/);
    // The segment and link rules are the API's (they need the business's name): it names the field too.
    const upstream = await put(owner, { smsTemplate: 'Thanks from {business_name}!' });
    expect(upstream.status).toBe(400);
    expect(upstream.json.fields.smsTemplate).toMatch(/must contain \{review_link\}/);
  });

  it('refuses a PUT without the CSRF header', async () => {
    const refused = await put(owner, { reminderAfterDays: 2 }, { csrf: false });
    expect(refused.status).toBe(403);
  });

  it('managers and staff cannot read or change the settings', async () => {
    for (const client of [manager, staff]) {
      expect((await client.get('/bff/settings')).json.code).toBe('role_forbidden');
      const refused = await put(client, { reminderAfterDays: 2 });
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe('role_forbidden');
    }
    const after = settingsResponseSchema.parse((await owner.get('/bff/settings')).json.data);
    expect(after.settings.reminderAfterDays).not.toBe(2);
  });

  it('an owner sends a test of the words being edited to their own phone, and to their own email', async () => {
    const before = settingsResponseSchema.parse((await owner.get('/bff/settings')).json.data);
    const smsTemplate = 'Trying new words, {customer_name}, at {business_name}: {review_link}';
    const phone = '+14155550177';
    const sent = await owner.post('/bff/settings/test', {
      channel: 'sms',
      phone,
      templates: { smsTemplate },
    });
    expect(sent.status).toBe(200);
    expect(settingsTestResultSchema.parse(sent.json.data)).toMatchObject({
      channel: 'sms',
      to: phone,
      status: 'sent',
    });
    const [sms] = await api.outbox(phone);
    expect(sms).toMatchObject({ test: true });
    expect(sms!.body).toBe(
      `Trying new words, ${SAMPLE_CUSTOMER_NAME}, at ${before.preview.businessName}: ${before.preview.reviewLink} ${SMS_OPT_OUT}`,
    );

    // Email: to the signed-in owner's address, whatever the page might add.
    const me = (await owner.get('/auth/me')).json.data.user.email as string;
    const refused = await owner.post('/bff/settings/test', { channel: 'email', to: 'someone@example.com' });
    expect(refused.status).toBe(400);
    const email = await owner.post('/bff/settings/test', { channel: 'email' });
    expect(email.status).toBe(200);
    expect(email.json.data.to).toBe(me);
    expect((await api.outbox(me))[0]).toMatchObject({ test: true, channel: 'email' });
  });

  it('managers and staff cannot send a test; the hourly limit comes back with its code and Retry-After', async () => {
    for (const client of [manager, staff]) {
      const refused = await client.post('/bff/settings/test', { channel: 'email' });
      expect(refused.json.code).toBe('role_forbidden');
    }
    const badPhone = await owner.post('/bff/settings/test', { channel: 'sms', phone: '12' });
    expect(badPhone.status).toBe(400);
    expect(Object.keys(badPhone.json.fields)).toEqual(['phone']);
    // Two went out in the test above: three more, then the limit.
    for (let i = 0; i < TEST_SENDS_PER_HOUR - 2; i++)
      expect((await owner.post('/bff/settings/test', { channel: 'email' })).status).toBe(200);
    const limited = await owner.post('/bff/settings/test', { channel: 'email' });
    expect(limited.status).toBe(429);
    expect(limited.json.code).toBe('test_send_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('says an upstream without the extension manages its own settings', async () => {
    const bareOwner = await bareBff.owner();
    const read = await bareOwner.get('/bff/settings');
    expectFailure(read, 404, 'settings_not_offered', /managed by that service/);
    expect(bare.calls.some((c) => c.url === '/api/v1/settings')).toBe(true);
    const test = await bareOwner.post('/bff/settings/test', { channel: 'email' });
    expect(test.json.code).toBe('settings_not_offered');
  });
});
