import { describe, expect, it } from 'vitest';
import { createMember, type ApiClient } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { adminAccountUser } from '../integrations/support';

let service: TestService;
let admin: ApiClient;
let me: { id: string; user_id: string };
let teamId: string;

useService(async (started) => {
  service = started;
  admin = service.admin;
  me = await adminAccountUser(admin);
  const team = await admin.post('/api/v4/teams', { name: 'Ops', member_account_user_ids: [me.id], admin_account_user_ids: [me.id] });
  if (team.status !== 201) throw new Error(`team: ${team.status} ${team.text}`);
  teamId = team.body.id;
});

const WEBHOOK_TYPE = '01KDVDNA00GN8A5NGEH4J1RJTG';

describe('integration types', () => {
  it('lists the read-only catalogue in the list envelope', async () => {
    const res = await admin.get('/api/v4/integration_types?limit=100');
    expect(res.status).toBe(200);
    expect(res.body.total_count).toBe(12);
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.map((t: any) => t.slug).sort()).toEqual([
      'aws_cloudwatch',
      'datadog',
      'grafana',
      'healthchecks',
      'heartbeat',
      'live_call',
      'opsgenie',
      'outgoing_webhook',
      'pagerduty_events_v2',
      'prometheus',
      'uptime_robot',
      'webhook',
    ]);
    const webhook = res.body.data.find((t: any) => t.slug === 'webhook');
    expect(webhook).toMatchObject({ id: WEBHOOK_TYPE, prefix_id: `itt_${WEBHOOK_TYPE}`, name: 'Webhook' });
    expect(webhook.description).not.toBe('');
  });

  it('gets one type by ULID or prefix id, filters by slug, and 404s anything else', async () => {
    expect((await admin.get(`/api/v4/integration_types/${WEBHOOK_TYPE}`)).body.slug).toBe('webhook');
    expect((await admin.get(`/api/v4/integration_types/itt_${WEBHOOK_TYPE}`)).body.slug).toBe('webhook');
    expect((await admin.get('/api/v4/integration_types?slug=datadog')).body.data).toHaveLength(1);
    expect((await admin.get(`/api/v4/integration_types/int_${WEBHOOK_TYPE}`)).status).toBe(404);
    expect((await admin.get('/api/v4/integration_types/01KDVDNA08AAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await service.anonymous.get('/api/v4/integration_types')).status).toBe(401);
  });
});

describe('creating integrations (v4)', () => {
  it('creates with defaults, folds option_* parameters into options and embeds the type', async () => {
    const res = await admin.post('/api/v4/integrations', {
      name: 'Prod alerts',
      urgency: 'high',
      integration_type_id: `itt_${WEBHOOK_TYPE}`,
      team_ids: [`tem_${teamId}`],
      account_user_ids: [me.id],
      option_token: 's3cret',
      option_capture_additional_data: 'true',
      options: { wrapper_key: 'detail' },
    });
    expect(res.status).toBe(201);
    const body = res.body;
    expect(body.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(body.prefix_id).toBe(`int_${body.id}`);
    expect(body.tiny_id).toEqual(expect.any(Number));
    expect(body).toMatchObject({
      name: 'Prod alerts',
      enabled: true,
      urgency: 'high',
      integration_type_id: WEBHOOK_TYPE,
      integration_type: { id: WEBHOOK_TYPE, slug: 'webhook', name: 'Webhook' },
      options: { token: 's3cret', capture_additional_data: true, wrapper_key: 'detail' },
      team_ids: [teamId],
      account_user_ids: [me.id],
      router_ids: [],
    });
    expect(body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const again = await admin.get(`/api/v4/integrations/${body.prefix_id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(body);
  });

  it('gives tiny ids 1, 2, 3… per account and accepts enabled=false and the type slug', async () => {
    const a = await admin.post('/api/v4/integrations', {
      name: 'A',
      urgency: 'low',
      integration_type_id: 'datadog',
      account_user_ids: [me.id],
    });
    const b = await admin.post('/api/v4/integrations', {
      name: 'B',
      urgency: 'low',
      integration_type_id: 'grafana',
      account_user_ids: [me.id],
      enabled: false,
    });
    expect(b.body.tiny_id).toBe(a.body.tiny_id + 1);
    expect(b.body.enabled).toBe(false);
    expect(a.body.integration_type.slug).toBe('datadog');
  });

  it('names every missing required field, and the missing destination, in one 422', async () => {
    const res = await admin.post('/api/v4/integrations', {});
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(422);
    const messages = res.body.errors.map((e: any) => e.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        "name can't be blank",
        "urgency can't be blank",
        "integration_type_id can't be blank",
        'account_user_ids, router_ids or team_ids must name at least one destination',
      ]),
    );
  });

  it('refuses an unknown type, urgency, team or account user (422 naming the field)', async () => {
    const base = { name: 'X', urgency: 'high', integration_type_id: 'webhook', account_user_ids: [me.id] };
    const unknownType = await admin.post('/api/v4/integrations', { ...base, integration_type_id: 'nagios' });
    expect(unknownType.status).toBe(422);
    expect(unknownType.body.errors[0].message).toMatch(/^integration_type_id/);
    const badUrgency = await admin.post('/api/v4/integrations', { ...base, urgency: 'urgent' });
    expect(badUrgency.body.errors[0].message).toMatch(/^urgency must be one of/);
    const team = await admin.post('/api/v4/integrations', { ...base, team_ids: ['01KDVDNA08AAAAAAAAAAAAAAAA'] });
    expect(team.status).toBe(422);
    expect(team.body.errors[0].message).toMatch(/^team_ids contains an unknown team/);
    const rate = await admin.post('/api/v4/integrations', { ...base, option_rate_limit_per_minute: 'lots' });
    expect(rate.status).toBe(422);
    expect(rate.body.errors[0].message).toMatch(/^option_rate_limit_per_minute/);
  });

  it('accepts a form-encoded body', async () => {
    const form = new URLSearchParams();
    form.append('name', 'Form');
    form.append('urgency', 'medium');
    form.append('integration_type_id', 'prometheus');
    form.append('account_user_ids[]', me.id);
    form.append('option_capture_additional_data', '1');
    form.append('enabled', 'false');
    const res = await admin.post('/api/v4/integrations', form.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Form', enabled: false, options: { capture_additional_data: true }, account_user_ids: [me.id] });
  });
});

describe('the earlier interface (/integration)', () => {
  it('creates from destination_ids (usr_ → the user’s account user) and shows the earlier representation', async () => {
    const res = await admin.post('/integration', {
      name: 'Legacy',
      type: 'prometheus',
      destination_ids: [`usr_${me.user_id}`, `tem_${teamId}`],
      options: { token: 'abc' },
    });
    expect(res.status).toBe(201);
    const body = res.body;
    expect(body.id).toMatch(/^int_[0-9A-Z]{26}$/);
    expect(body.sid).toMatch(/^acc_[0-9A-Z]{26}$/);
    expect(body).toMatchObject({ name: 'Legacy', type: 'prometheus', enabled: true, urgency: 'medium', options: { token: 'abc' } });
    expect(body.destination_ids.sort()).toEqual([`tem_${teamId}`, `usr_${me.user_id}`].sort());
    expect(body.tinyId).toEqual(expect.any(Number));
    expect(body.createdAt).toMatch(/Z$/);
    const v4 = await admin.get(`/api/v4/integrations/${body.id}`);
    expect(v4.body).toMatchObject({ account_user_ids: [me.id], team_ids: [teamId], integration_type: { slug: 'prometheus' } });
    expect((await admin.get(`/integration/${body.id}`)).body).toEqual(body);
  });

  it('answers 400 naming missing fields and unknown destinations', async () => {
    const missing = await admin.post('/integration', {});
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBeUndefined();
    expect(missing.body.errors.map((e: any) => e.message)).toEqual(
      expect.arrayContaining(["name can't be blank", "type can't be blank", "destination_ids can't be blank"]),
    );
    const unknown = await admin.post('/integration', { name: 'L', type: 'webhook', destination_ids: ['usr_01KDVDNA08AAAAAAAAAAAAAAAA'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toMatch(/^destination_ids contains an unknown user/);
    const badType = await admin.post('/integration', { name: 'L', type: 'nagios', destination_ids: [`tem_${teamId}`] });
    expect(badType.status).toBe(400);
  });

  it('updates partially and lists with the earlier envelope and select', async () => {
    const created = (await admin.post('/integration', { name: 'Old', type: 'webhook', destination_ids: [`tem_${teamId}`] })).body;
    const updated = await admin.put(`/integration/${created.id}`, { name: 'New', enabled: false });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'New', enabled: false, type: 'webhook', destination_ids: [`tem_${teamId}`] });
    const list = await admin.get('/integration?name=New&select=name,enabled');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([{ id: created.id, name: 'New', enabled: false }]);
  });
});

describe('updating, listing and deleting', () => {
  it('changes only the fields sent, merges options (null unsets) and keeps a destination', async () => {
    const created = (
      await admin.post('/api/v4/integrations', {
        name: 'Edit me',
        urgency: 'low',
        integration_type_id: 'webhook',
        account_user_ids: [me.id],
        option_token: 't',
        option_wrapper_key: 'x',
      })
    ).body;
    const res = await admin.put(`/api/v4/integrations/${created.id}`, {
      urgency: 'critical',
      option_token: null,
      options: { capture_additional_data: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Edit me', urgency: 'critical', options: { wrapper_key: 'x', capture_additional_data: true } });
    expect(res.body.options.token).toBeUndefined();
    expect(res.body.updated_at >= created.updated_at).toBe(true);
    const moved = await admin.put(`/api/v4/integrations/${created.id}`, { team_ids: [teamId], account_user_ids: [] });
    expect(moved.body).toMatchObject({ team_ids: [teamId], account_user_ids: [] });
    const none = await admin.put(`/api/v4/integrations/${created.id}`, { team_ids: [] });
    expect(none.status).toBe(422);
  });

  it('lists newest first with exact totals and filters', async () => {
    const name = `Listed ${Math.random().toString(36).slice(2, 6)}`;
    for (let i = 0; i < 3; i++) {
      await admin.post('/api/v4/integrations', {
        name,
        urgency: 'low',
        integration_type_id: 'webhook',
        account_user_ids: [me.id],
        enabled: i !== 1,
      });
    }
    const all = await admin.get('/api/v4/integrations?limit=2');
    expect(all.body.data).toHaveLength(2);
    expect(all.body.has_more).toBe(true);
    expect(all.body.data[0].id > all.body.data[1].id).toBe(true);
    const filtered = await admin.get(`/api/v4/integrations?name=${encodeURIComponent(name)}&enabled=true`);
    expect(filtered.body.total_count).toBe(2);
    expect((await admin.get('/api/v4/integrations?colour=red')).status).toBe(422);
  });

  it('deletes: 204, then 404 on every interface and for inbound webhooks', async () => {
    const created = (
      await admin.post('/api/v4/integrations', {
        name: 'Doomed',
        urgency: 'low',
        integration_type_id: 'webhook',
        account_user_ids: [me.id],
      })
    ).body;
    const res = await admin.delete(`/api/v4/integrations/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await admin.get(`/api/v4/integrations/${created.id}`)).status).toBe(404);
    expect((await admin.get(`/integration/${created.prefix_id}`)).status).toBe(404);
    expect((await admin.delete(`/integration/${created.prefix_id}`)).status).toBe(404);
    expect((await service.anonymous.post(`/integration/${created.prefix_id}`, { title: 'x' })).status).toBe(404);
  });
});

describe('roles and isolation', () => {
  it('lets non-admins read but not create, update or delete (403)', async () => {
    const { client } = await createMember(admin);
    const created = (
      await admin.post('/api/v4/integrations', { name: 'Mine', urgency: 'low', integration_type_id: 'webhook', account_user_ids: [me.id] })
    ).body;
    expect((await client.get(`/api/v4/integrations/${created.id}`)).status).toBe(200);
    expect((await client.get('/api/v4/integrations')).status).toBe(200);
    expect(
      (await client.post('/api/v4/integrations', { name: 'N', urgency: 'low', integration_type_id: 'webhook', account_user_ids: [me.id] }))
        .status,
    ).toBe(403);
    expect((await client.post('/integration', { name: 'N', type: 'webhook', destination_ids: [`tem_${teamId}`] })).status).toBe(403);
    expect((await client.put(`/api/v4/integrations/${created.id}`, { name: 'Hijacked' })).status).toBe(403);
    expect((await client.delete(`/api/v4/integrations/${created.id}`)).status).toBe(403);
  });

  it('hides integrations of other accounts (404, never listed)', async () => {
    const other = await signupAccount(service);
    const created = (
      await admin.post('/api/v4/integrations', {
        name: 'Secret',
        urgency: 'low',
        integration_type_id: 'webhook',
        account_user_ids: [me.id],
      })
    ).body;
    expect((await other.client.get(`/api/v4/integrations/${created.id}`)).status).toBe(404);
    expect((await other.client.get(`/integration/${created.prefix_id}`)).status).toBe(404);
    expect((await other.client.put(`/api/v4/integrations/${created.id}`, { name: 'x' })).status).toBe(404);
    expect((await other.client.delete(`/api/v4/integrations/${created.id}`)).status).toBe(404);
    expect((await other.client.get('/api/v4/integrations')).body.total_count).toBe(0);
    // A reference to another account's integration is unknown here.
    const window = await other.client.post('/api/v4/maintenance_windows', {
      name: 'w',
      start_datetime: '2030-01-01T00:00:00Z',
      end_datetime: '2030-01-02T00:00:00Z',
      time_zone: 'UTC',
      integration_ids: [created.id],
    });
    expect(window.status).toBe(422);
  });
});
