// The deprecated /broadcast and /incident views of alerts (docs/api.md#broadcasts): each answers earlier-style
// alert objects of its own kind only; broadcasts need the admin or broadcaster role.
import { describe, expect, it } from 'vitest';
import { createMember, type ApiClient } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { eventually, seedTeam, whoAmI, type Me } from '../alerts/support';

let service: TestService;
let admin: ApiClient;
let me: Me;

useService(async (started) => {
  service = started;
  admin = service.admin;
  me = await whoAmI(admin);
});

describe('/broadcast', () => {
  it('creates a broadcast alert for an admin, and lists and reads only broadcasts', async () => {
    const plain = await admin.post('/alert', { title: 'Plain', destination_ids: [`usr_${me.userId}`] });
    const res = await admin.post('/broadcast', { title: 'Office closed', destination_ids: [`usr_${me.userId}`] });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ subtype: 'broadcast', title: 'Office closed', status: 'open', response_requested: false });
    expect(res.body.id).toMatch(/^alt_/);
    expect((await admin.get(`/broadcast/${res.body.id}`)).body.title).toBe('Office closed');
    expect((await admin.get(`/broadcast/${plain.body.id}`)).status).toBe(404);
    const list = await admin.get('/broadcast');
    expect(list.status).toBe(200);
    expect(list.body.data.every((a: { subtype: string }) => a.subtype === 'broadcast')).toBe(true);
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(res.body.id);
    expect(list.body.total_count).toBe(list.body.data.length);
    // The same object is an alert on both interfaces.
    expect((await admin.get(`/alert/${res.body.id}`)).body.subtype).toBe('broadcast');
    expect((await admin.get(`/api/v4/alerts/${res.body.id}`)).status).toBe(200);
  });

  it('needs admin or broadcaster to create and delete (403), while anyone may read', async () => {
    const { client: member } = await createMember(admin);
    const { client: broadcaster } = await createMember(admin, { roles: { broadcaster: true } });
    const body = { title: 'All hands', destination_ids: [`usr_${me.userId}`] };
    const refused = await member.post('/broadcast', body);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].message).toMatch(/broadcaster/);
    const made = await broadcaster.post('/broadcast', body);
    expect(made.status).toBe(201);
    expect((await member.get(`/broadcast/${made.body.id}`)).status).toBe(200);
    expect((await member.get('/broadcast')).status).toBe(200);
    expect((await member.delete(`/broadcast/${made.body.id}`)).status).toBe(403);
    expect((await broadcaster.delete(`/broadcast/${made.body.id}`)).status).toBe(204);
    expect((await admin.get(`/broadcast/${made.body.id}`)).status).toBe(404);
  });

  it('needs title and user or team destination_ids (400)', async () => {
    const res = await admin.post('/broadcast', {});
    expect(res.status).toBe(400);
    const messages = res.body.errors.map((e: { message: string }) => e.message);
    expect(messages).toContain("title can't be blank");
    expect(messages).toContain("destination_ids can't be blank");
    const router = await admin.post('/broadcast', { title: 't', destination_ids: ['rtr_01ARZ3NDEKTSV4RRFFQ69G5FAV'] });
    expect(router.status).toBe(400);
  });
});

describe('/incident', () => {
  it('creates an incident alert, lists and reads only incidents, and updates its flags', async () => {
    const teamId = await seedTeam(me.accountId, [me.accountUserId]);
    await admin.post('/alert', { title: 'Not an incident', destination_ids: [`usr_${me.userId}`] });
    const res = await admin.post('/incident', {
      title: 'Outage',
      destination_ids: [`tem_${teamId}`],
      meta: { incident_severity: 'SEV-1', incident_message: 'war room' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.meta).toEqual({ incident: true, incident_severity: 'SEV-1', incident_message: 'war room' });
    const list = await admin.get('/incident');
    expect(list.body.data.every((a: { meta: { incident?: boolean } }) => a.meta.incident === true)).toBe(true);
    expect(list.body.total_count).toBe(list.body.data.length);
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(res.body.id);

    const updated = await admin.put(`/incident/${res.body.id}`, { meta: { incident_severity: 'SEV-2', incident_message: null } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.meta).toEqual({ incident: true, incident_severity: 'SEV-2' });
    const bad = await admin.put(`/incident/${res.body.id}`, { meta: { incident_severity: 'SEV-0' } });
    expect(bad.status).toBe(400);

    // An alert flagged through v4 is an incident too; unflagging takes it out of the view.
    const v4 = await admin.post('/api/v4/alerts', {
      title: 'Flagged',
      urgency: 'low',
      destination_account_user_ids: [me.accountUserId],
      meta: { incident: true },
    });
    expect((await admin.get(`/incident/${v4.body.prefix_id}`)).status).toBe(200);
    await admin.put(`/api/v4/alerts/${v4.body.id}`, { meta: { incident: false } });
    expect((await admin.get(`/incident/${v4.body.prefix_id}`)).status).toBe(404);
    const after = await admin.get('/incident?limit=100');
    expect(after.body.data.map((a: { id: string }) => a.id)).not.toContain(v4.body.prefix_id);
  });

  it('404s plain alerts on retrieve, update and delete; deletes incidents with 204', async () => {
    const plain = await admin.post('/alert', { title: 'Plain', destination_ids: [`usr_${me.userId}`] });
    expect((await admin.get(`/incident/${plain.body.id}`)).status).toBe(404);
    expect((await admin.put(`/incident/${plain.body.id}`, { title: 'x' })).status).toBe(404);
    expect((await admin.delete(`/incident/${plain.body.id}`)).status).toBe(404);
    const incident = await admin.post('/incident', { title: 'Short', destination_ids: [`usr_${me.userId}`] });
    expect((await admin.delete(`/incident/${incident.body.id}`)).status).toBe(204);
    expect((await admin.get(`/alert/${incident.body.id}`)).status).toBe(404);
  });

  it("lists the incident's timeline oldest first, paginated", async () => {
    const incident = await admin.post('/incident', { title: 'Timeline', destination_ids: [`usr_${me.userId}`] });
    const id = incident.body.id;
    // moto lacks isolation between concurrent conditional writes: there the routing worker's write
    // goes first, so it cannot interleave with the transitions below.
    if (process.env.AWS_ENDPOINT_URL) {
      await eventually(
        () => admin.get(`/alert/${id}`),
        (r) => r.body.d_user_id !== null || r.body.d_team_id !== null,
      );
    }
    await admin.post(`/alert/${id}/acknowledge`);
    await admin.post(`/alert/${id}/resolve`);
    await admin.post(`/alert/${id}/archive`);
    const res = await admin.get(`/incident/${id}/logs?limit=100`);
    expect(res.status).toBe(200);
    const actions = res.body.data
      .map((l: { data: { action: string } }) => l.data.action)
      .filter((a: string) => a !== 'routed' && a !== 'escalated');
    expect(actions).toEqual(['created', 'acknowledged', 'resolved', 'archived']);
    expect(res.body.data.every((l: { owner_id: string }) => l.owner_id === id)).toBe(true);
    const first = res.body.data.find((l: { data: { action: string } }) => l.data.action === 'acknowledged');
    expect(first).toMatchObject({
      type: 'alert',
      source_id: `usr_${me.userId}`,
      data: { old_status: 'open', new_status: 'acknowledged', actor: { type: 'AccountUser', id: `usr_${me.userId}` } },
    });
    expect(first.data.time).toBe(first.createdAt);
    const page = await admin.get(`/incident/${id}/logs?limit=2&page=2`);
    expect(page.body.total_count).toBe(res.body.total_count);
    expect(page.body.data.map((l: { id: string }) => l.id)).toEqual(res.body.data.slice(2, 4).map((l: { id: string }) => l.id));
    const newest = await admin.get(`/incident/${id}/logs?sort=-createdAt&limit=1`);
    expect(newest.body.data[0].id).toBe(res.body.data[res.body.data.length - 1].id);
    expect((await admin.get('/incident/alt_01ARZ3NDEKTSV4RRFFQ69G5FAV/logs')).status).toBe(404);
  });

  it("hides another account's incidents and broadcasts", async () => {
    const incident = await admin.post('/incident', { title: 'Secret', destination_ids: [`usr_${me.userId}`] });
    const broadcast = await admin.post('/broadcast', { title: 'Secret', destination_ids: [`usr_${me.userId}`] });
    const { client } = await signupAccount(service, 'Views');
    for (const path of [`/incident/${incident.body.id}`, `/broadcast/${broadcast.body.id}`, `/incident/${incident.body.id}/logs`]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
    }
    expect((await client.delete(`/broadcast/${broadcast.body.id}`)).status).toBe(404);
    expect((await client.get('/incident')).body.total_count).toBe(0);
    expect((await client.get('/broadcast')).body.total_count).toBe(0);
  });
});
