import { widgetDataSchema, widgetOwnerSchema } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { addUser, startBff, type TestBff } from './support/bff.ts';
import { type DashboardClient, expectFailure } from './support/client.ts';
import { type DemoApi, startDemoApi } from './support/demo-api.ts';

// Settings → Website widget through /bff/widget, in front of the real API (both real
// processes): an owner reads the snippet, hides a review for a content reason and shows it again,
// switches the widget off and on; visitors see each change. Managers and staff are refused before
// anything goes upstream; an upstream without the widget is named as such.

let api: DemoApi;
let bff: TestBff;
let owner: DashboardClient;
let manager: DashboardClient;
let bare: FakeUpstream;
let bareBff: TestBff;

beforeAll(async () => {
  api = await startDemoApi('bff-widget-');
  bare = await startFakeUpstream();
  [bff, bareBff] = await Promise.all([startBff(api.url, api.keyFromFile), startBff(bare.url)]);
  owner = await bff.owner();
  manager = await addUser(bff, owner, {
    email: 'manager@example.com',
    password: 'manager-password-long-enough',
    role: 'manager',
  });
});

afterAll(async () => {
  await Promise.all([bff?.stop(), bareBff?.stop()]);
  await bare?.close();
  await api?.stop();
});

const visitorSees = async (id: string) => {
  const response = await fetch(`${api.url}/widget/v1/${id}.json`);
  return widgetDataSchema.parse(((await response.json()) as { data: unknown }).data);
};

describe('/bff/widget', () => {
  it('an owner gets the snippet and hides a review for a content reason; visitors see it hidden and counted', async () => {
    const read = await owner.get('/bff/widget');
    expect(read.status).toBe(200);
    const widget = widgetOwnerSchema.parse(read.json.data);
    expect(widget.snippet).toContain(`data-business="${widget.id}"`);
    expect(widget.snippet).toContain(`${api.url}/widget/v1.js`);
    // The demo's customers: two in three agreed to be shown.
    expect(widget.shown.length).toBeGreaterThan(0);
    const target = widget.shown[0]!;

    const hidden = await owner.request('PUT', `/bff/widget/hidden/${target.id}`, {
      body: { reason: 'abuse' },
    });
    expect(hidden.status).toBe(200);
    expect(widgetOwnerSchema.parse(hidden.json.data).hidden[0]).toMatchObject({
      id: target.id,
      reason: 'abuse',
    });
    const seen = await visitorSees(widget.id);
    expect(seen.enabled && seen.hidden.count).toBe(1);

    const shown = await owner.request('DELETE', `/bff/widget/hidden/${target.id}`);
    expect(shown.status).toBe(200);
    expect(widgetOwnerSchema.parse(shown.json.data).hidden).toEqual([]);
  });

  it('refuses a reason not on the list at the BFF, with the shared words, and a review not the business’s upstream', async () => {
    const widget = widgetOwnerSchema.parse((await owner.get('/bff/widget')).json.data);
    const bad = await owner.request('PUT', `/bff/widget/hidden/${widget.shown[0]!.id}`, {
      body: { reason: 'too negative' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('validation_failed');
    expect(bad.json.fields.reason).toMatch(/reason must be one of abuse, private_data/);
    const missing = await owner.request('PUT', '/bff/widget/hidden/rev_999999999', {
      body: { reason: 'abuse' },
    });
    expectFailure(missing, 404, 'review_not_found', /No review with this id/);
    expect((await owner.request('DELETE', '/bff/widget/hidden/..%2f')).status).toBe(400);
  });

  it('an owner switches the widget off and on; without the CSRF header nothing changes', async () => {
    const { id } = widgetOwnerSchema.parse((await owner.get('/bff/widget')).json.data);
    expect(
      (await owner.request('PUT', '/bff/widget', { body: { enabled: false }, csrf: false })).status,
    ).toBe(403);
    expect((await visitorSees(id)).enabled).toBe(true);
    const off = await owner.request('PUT', '/bff/widget', { body: { enabled: false } });
    expect(widgetOwnerSchema.parse(off.json.data).enabled).toBe(false);
    expect(await visitorSees(id)).toEqual({ enabled: false });
    await owner.request('PUT', '/bff/widget', { body: { enabled: true } });
    expect((await visitorSees(id)).enabled).toBe(true);
  });

  it('managers cannot read it or change it', async () => {
    expect((await manager.get('/bff/widget')).json.code).toBe('role_forbidden');
    expect((await manager.request('PUT', '/bff/widget', { body: { enabled: false } })).json.code).toBe(
      'role_forbidden',
    );
    expect((await manager.request('DELETE', '/bff/widget/hidden/rev_1')).json.code).toBe('role_forbidden');
  });

  it('says an upstream without the widget does not offer one', async () => {
    const bareOwner = await bareBff.owner();
    expectFailure(
      await bareOwner.get('/bff/widget'),
      404,
      'widget_not_offered',
      /does not offer a website widget/,
    );
    expect(bare.calls.some((c) => c.url === '/api/v1/widget')).toBe(true);
    const hide = await bareOwner.request('PUT', '/bff/widget/hidden/rev_1', { body: { reason: 'abuse' } });
    expect(hide.json.code).toBe('widget_not_offered');
  });
});
