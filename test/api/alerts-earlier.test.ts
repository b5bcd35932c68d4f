// The earlier interface's /alert: its representation, mixed destination_ids, validation (400),
// update, delete and lists.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { eventually, seedObject, seedTeam, whoAmI, type Me } from '../alerts/support';

let service: TestService;
let admin: ApiClient;
let me: Me;
let teamId: string;

useService(async (started) => {
  service = started;
  admin = service.admin;
  me = await whoAmI(admin);
  teamId = await seedTeam(me.accountId, [me.accountUserId]);
});

describe('creating through /alert', () => {
  it('answers the earlier representation with prefix ids and Unix seconds', async () => {
    const routerId = await seedObject(me.accountId, 'RTR');
    const scheduleId = await seedObject(me.accountId, 'SKD');
    const res = await admin.post('/alert', {
      title: 'Earlier',
      description: 'd',
      urgency: 'critical',
      destination_ids: [`tem_${teamId}`, `usr_${me.userId}`, `rtr_${routerId}`, `skd_${scheduleId}`],
      tags: ['t'],
      thirdparty_id: 'abc',
      meta: { incident: false },
    });
    expect(res.status, res.text).toBe(201);
    const alert = res.body;
    expect(alert).toMatchObject({
      sid: `acc_${me.accountId}`,
      title: 'Earlier',
      description: 'd',
      urgency: 'critical',
      status: 'open',
      subtype: 'alert',
      tags: ['t'],
      thirdparty_id: 'abc',
      destination_ids: [`tem_${teamId}`, `usr_${me.userId}`, `rtr_${routerId}`, `skd_${scheduleId}`],
      source_id: `usr_${me.userId}`,
      s_log_id: null,
      acknowledged: null,
      acknowledgedby: null,
      resolved: null,
      archived: null,
      handoffs: [],
      additional_data: [],
      stakeholder_ids: [],
      meta: { incident: false },
    });
    expect(alert.id).toMatch(/^alt_[0-9A-Z]{26}$/);
    expect(typeof alert.tinyId).toBe('number');
    expect(alert.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect(alert.created).toBe(Math.floor(Date.parse(alert.createdAt) / 1000));
    const routed = await eventually(
      () => admin.get(`/alert/${alert.id}`),
      (r) => r.body.d_team_id !== null,
    );
    expect(routed.body.d_team_id).toBe(`tem_${teamId}`);
    expect(routed.body.d_user_id).toBe(`usr_${me.userId}`);
  });

  it('needs title and destination_ids (400 naming them)', async () => {
    const res = await admin.post('/alert', {});
    expect(res.status).toBe(400);
    expect(res.body).not.toHaveProperty('code');
    const messages = res.body.errors.map((e: { message: string }) => e.message);
    expect(messages).toContain("title can't be blank");
    expect(messages).toContain("destination_ids can't be blank");
    const empty = await admin.post('/alert', { title: 'x', destination_ids: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].message).toMatch(/^destination_ids/);
  });

  it('400s unknown or malformed destination ids and bad enums, naming the field', async () => {
    const res = await admin.post('/alert', {
      title: 'x',
      urgency: 'meh',
      destination_ids: ['usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'tem_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'int_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'plain'],
    });
    expect(res.status).toBe(400);
    const messages = res.body.errors.map((e: { message: string }) => e.message).join('\n');
    expect(messages).toMatch(/urgency must be one of/);
    const subtype = await admin.post('/alert', { title: 'x', subtype: 'memo', destination_ids: [`usr_${me.userId}`] });
    expect(subtype.status).toBe(400);
    expect(subtype.body.errors[0].message).toBe('subtype must be one of: alert, broadcast, page');
    const severity = await admin.post('/alert', {
      title: 'x',
      meta: { incident_severity: 'SEV-6' },
      destination_ids: [`usr_${me.userId}`],
    });
    expect(severity.status).toBe(400);
    expect(severity.body.errors[0].message).toMatch(/^meta.incident_severity must be one of/);
    const bad = await admin.post('/alert', {
      title: 'x',
      destination_ids: ['usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'tem_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'int_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'plain'],
    });
    const text = bad.body.errors.map((e: { message: string }) => e.message).join('\n');
    expect(text).toMatch(/destination_ids contains an unknown user: usr_01ARZ3NDEKTSV4RRFFQ69G5FAV/);
    expect(text).toMatch(/destination_ids contains an unknown team/);
    expect(text).toMatch(/destination_ids contains an id that is not a .*: int_/);
    expect(text).toMatch(/destination_ids contains an id that is not a .*: plain/);
  });

  it('400s malformed JSON', async () => {
    const res = await admin.post('/alert', '{', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
  });

  it("maps a usr_ destination to that user's account user in this account only", async () => {
    const { client: other } = await signupAccount(service, 'Elsewhere');
    const stranger = await whoAmI(other);
    const res = await admin.post('/alert', { title: 'x', destination_ids: [`usr_${stranger.userId}`] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toContain('unknown user');
  });
});

describe('updating and deleting through /alert', () => {
  it('updates the fields sent and replaces destinations', async () => {
    const created = await admin.post('/alert', { title: 'Before', destination_ids: [`usr_${me.userId}`], tags: ['a'] });
    const res = await admin.put(`/alert/${created.body.id}`, {
      title: 'After',
      tags: ['b', 'c'],
      destination_ids: [`tem_${teamId}`],
      meta: { incident: true, incident_severity: 'SEV-3' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      title: 'After',
      tags: ['b', 'c'],
      destination_ids: [`tem_${teamId}`],
      meta: { incident: true, incident_severity: 'SEV-3' },
    });
    const v4 = await admin.get(`/api/v4/alerts/${created.body.id.slice(4)}`);
    expect(v4.body).toMatchObject({ destination_team_ids: [teamId], destination_account_user_ids: [], tag_list: ['b', 'c'] });
    expect((await admin.put(`/alert/${created.body.id}`, { destination_ids: [] })).status).toBe(400);
    expect((await admin.put(`/alert/${created.body.id}`, { urgency: 'x' })).status).toBe(400);
  });

  it('deletes with 204 and 404s afterwards', async () => {
    const created = await admin.post('/alert', { title: 'Gone', destination_ids: [`usr_${me.userId}`] });
    expect((await admin.delete(`/alert/${created.body.id}`)).status).toBe(204);
    expect((await admin.get(`/alert/${created.body.id}`)).status).toBe(404);
    expect((await admin.delete(`/alert/${created.body.id}`)).status).toBe(404);
  });
});

describe('listing through /alert', () => {
  it('lists earlier objects with filters, select, sort=-attr and counts', async () => {
    const { client } = await signupAccount(service, 'EarlierLists');
    const owner = await whoAmI(client);
    const team = await seedTeam(owner.accountId, [owner.accountUserId]);
    for (let i = 0; i < 5; i++) {
      const res = await client.post('/alert', {
        title: `E${i}`,
        urgency: i < 2 ? 'high' : 'low',
        destination_ids: i === 0 ? [`tem_${team}`] : [`usr_${owner.userId}`],
        tags: i % 2 ? ['odd'] : ['even'],
      });
      expect(res.status).toBe(201);
    }
    const all = await client.get('/alert?limit=2');
    expect(all.body.total_count).toBe(5);
    expect(all.body.has_more).toBe(true);
    expect(all.body.data.map((a: { title: string }) => a.title)).toEqual(['E4', 'E3']);
    const high = await client.get('/alert?urgency=high');
    expect(high.body.data.map((a: { title: string }) => a.title)).toEqual(['E1', 'E0']);
    const odd = await client.get('/alert?tags=odd');
    expect(odd.body.total_count).toBe(2);
    const byTeam = await client.get(`/alert?destination_ids=tem_${team}`);
    expect(byTeam.body.data.map((a: { title: string }) => a.title)).toEqual(['E0']);
    const selected = await client.get('/alert?select=title,status&limit=1');
    expect(selected.body.data[0]).toEqual({ id: expect.stringMatching(/^alt_/), title: 'E4', status: 'open' });
    const sorted = await client.get('/alert?sort=-tinyId&limit=1');
    expect(sorted.body.data[0].title).toBe('E4');
    const ascending = await client.get('/alert?sort=tinyId&limit=1');
    expect(ascending.body.data[0].title).toBe('E0');
    const assigned = await eventually(
      () => client.get(`/alert?d_team_id=tem_${team}`),
      (r) => r.body.total_count === 1,
    );
    expect(assigned.body.data[0].title).toBe('E0');
    expect((await client.get('/alert?bogus=1')).status).toBe(400);
    expect((await client.get('/alert?limit=500')).status).toBe(400);
  });
});
