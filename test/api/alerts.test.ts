// v4 alerts over HTTP: create/read/update/delete, validation, lists (filters, ops, pagination,
// exact counts), comments, a team's alerts, account isolation and routing.
// @moto: the alert store: conditional creates, updates, deletes and exact counts.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type ApiClient } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { eventually, forceStatus, seedObject, seedTeam, whoAmI, type Me } from '../alerts/support';

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

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

async function createAlert(body: Record<string, unknown> = {}, client: ApiClient = admin) {
  const res = await client.post('/api/v4/alerts', {
    title: 'Database down',
    urgency: 'high',
    destination_account_user_ids: [me.accountUserId],
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('creating an alert', () => {
  it('returns the open alert with every documented field', async () => {
    const alert = await createAlert({
      description: 'primary is unreachable',
      tag_list: ['db', 'prod'],
      meta: { incident: true, incident_severity: 'SEV-2', incident_message: 'all hands' },
      thirdparty_id: 'ext-1',
      destination_team_ids: [`tem_${teamId}`],
    });
    expect(alert).toMatchObject({
      title: 'Database down',
      description: 'primary is unreachable',
      urgency: 'high',
      status: 'open',
      account_id: me.accountId,
      tag_list: ['db', 'prod'],
      thirdparty_id: 'ext-1',
      dedup_count: 1,
      dedup_keys: [],
      source_type: 'AccountUser',
      source_id: me.accountUserId,
      source_log_id: null,
      meta: { incident: true, incident_severity: 'SEV-2', incident_message: 'all hands' },
      destination_team_ids: [teamId],
      destination_router_ids: [],
      destination_account_user_ids: [me.accountUserId],
      acknowledged_at: null,
      resolved_at: null,
    });
    expect(alert.id).toMatch(ULID);
    expect(alert.prefix_id).toBe(`alt_${alert.id}`);
    expect(alert.tiny_id).toBeGreaterThan(0);
    expect(alert.created_at).toMatch(ISO_MS);
    expect(alert.updated_at).toMatch(ISO_MS);
    const read = await admin.get(`/api/v4/alerts/${alert.prefix_id}`);
    expect(read.status).toBe(200);
    // The team's escalation starts beside the answer and may stamp updated_at meanwhile; every
    // other field reads back as created.
    expect({ ...read.body, updated_at: alert.updated_at }).toEqual(alert);
    expect(read.body.updated_at >= alert.updated_at).toBe(true);
  });

  it('gives tiny ids 1, 2, 3 … per account', { tags: ['moto'] }, async () => {
    const a = await createAlert();
    const b = await createAlert();
    expect(b.tiny_id).toBe(a.tiny_id + 1);
  });

  it('gives concurrent creates distinct tiny ids with no gaps', { tags: ['moto'] }, async () => {
    const before = (await createAlert()).tiny_id;
    const made = await Promise.all(Array.from({ length: 30 }, () => createAlert()));
    const ids = made.map((a) => a.tiny_id).sort((x, y) => x - y);
    expect(ids).toEqual(Array.from({ length: 30 }, (_, i) => before + 1 + i));
  });

  it('accepts tags as another name for tag_list, and null in meta as unset', async () => {
    const alert = await createAlert({ tags: ['x', 'y'], meta: { incident: true, incident_severity: null } });
    expect(alert.tag_list).toEqual(['x', 'y']);
    expect(alert.meta).toEqual({ incident: true });
  });

  it('accepts silent urgency and SEV-UNKNOWN', async () => {
    const alert = await createAlert({ urgency: 'silent', meta: { incident_severity: 'SEV-UNKNOWN' } });
    expect(alert.urgency).toBe('silent');
    expect(alert.meta.incident_severity).toBe('SEV-UNKNOWN');
  });

  it('accepts a form-encoded body with bracket lists', async () => {
    const body = new URLSearchParams([
      ['title', 'Form alert'],
      ['urgency', 'low'],
      ['destination_account_user_ids[]', me.accountUserId],
      ['tag_list[]', 'a'],
      ['tag_list[]', 'b'],
      ['meta[incident]', 'true'],
    ]).toString();
    const res = await admin.post('/api/v4/alerts', body, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ title: 'Form alert', tag_list: ['a', 'b'], meta: { incident: true } });
  });

  it('ignores read-only and unknown fields', async () => {
    const alert = await createAlert({ status: 'resolved', id: 'nope', dedup_count: 9, whatever: 1 });
    expect(alert.status).toBe('open');
    expect(alert.dedup_count).toBe(1);
    expect(alert).not.toHaveProperty('whatever');
  });

  it('names every missing required field (422)', async () => {
    const res = await admin.post('/api/v4/alerts', {});
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(422);
    const messages = res.body.errors.map((e: { message: string }) => e.message);
    expect(messages).toContain("title can't be blank");
    expect(messages).toContain("urgency can't be blank");
    const destination = messages.find((m: string) => m.includes('destination'));
    expect(destination).toMatch(/destination_team_ids/);
    expect(destination).toMatch(/destination_router_ids/);
    expect(destination).toMatch(/destination_account_user_ids/);
  });

  it('rejects a blank title and an empty destination list', async () => {
    const res = await admin.post('/api/v4/alerts', { title: '  ', urgency: 'low', destination_team_ids: [] });
    expect(res.status).toBe(422);
    const messages = res.body.errors.map((e: { message: string }) => e.message);
    expect(messages).toContain("title can't be blank");
    expect(messages.some((m: string) => m.includes('at least one destination'))).toBe(true);
  });

  it('checks the urgency and incident severity enums', async () => {
    const res = await admin.post('/api/v4/alerts', {
      title: 't',
      urgency: 'urgent',
      meta: { incident_severity: 'SEV-9', incident: 'maybe' },
      destination_account_user_ids: [me.accountUserId],
    });
    expect(res.status).toBe(422);
    const messages = res.body.errors.map((e: { message: string }) => e.message);
    expect(messages).toContain('urgency must be one of: silent, low, medium, high, critical');
    expect(messages.some((m: string) => m.startsWith('meta.incident_severity must be one of: SEV-1'))).toBe(true);
    expect(messages.some((m: string) => m.startsWith('meta.incident '))).toBe(true);
  });

  it('answers 422 naming the field for references that do not exist in the account', async () => {
    const ghost = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const res = await admin.post('/api/v4/alerts', {
      title: 't',
      urgency: 'low',
      destination_team_ids: [ghost],
      destination_router_ids: ['not-an-id'],
      destination_account_user_ids: [ghost],
    });
    expect(res.status).toBe(422);
    const messages = res.body.errors.map((e: { message: string }) => e.message).join('\n');
    expect(messages).toMatch(/destination_team_ids contains an unknown team/);
    expect(messages).toMatch(/destination_router_ids contains an id that is not a router/);
    expect(messages).toMatch(/destination_account_user_ids contains an unknown accountUser/);
  });

  it('accepts routers and teams that exist', async () => {
    const routerId = await seedObject(me.accountId, 'RTR');
    const alert = await createAlert({ destination_router_ids: [`rtr_${routerId}`], destination_account_user_ids: [] });
    expect(alert.destination_router_ids).toEqual([routerId]);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await admin.post('/api/v4/alerts', '{"title":', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
  });
});

describe('routing hand-off', () => {
  it('assigns the new alert to its first team and first account user, with a routed timeline entry', async () => {
    const alert = await createAlert({ destination_team_ids: [teamId] });
    const routed = await eventually(
      () => admin.get(`/alert/${alert.prefix_id}`),
      (res) => res.body.d_user_id !== null,
    );
    expect(routed.body.d_team_id).toBe(`tem_${teamId}`);
    expect(routed.body.d_user_id).toBe(`usr_${me.userId}`);
    const logs = await eventually(
      () => admin.get(`/log?owner_id=${alert.prefix_id}`),
      (res) => res.body.data.some((l: { data: { action: string } }) => l.data.action === 'routed'),
    );
    // (Escalation adds its own steps beside routing's: who was paged.)
    const actions = logs.body.data
      .map((l: { data: { action: string } }) => l.data.action)
      .filter((a: string) => !['escalated', 'timed_out', 'exhausted', 'layer_skipped', 'dropped'].includes(a));
    expect(actions).toEqual(['created', 'routed']);
  });
});

describe('reading, updating and deleting', () => {
  it('404s an id of the wrong form, another prefix, or an absent alert', async () => {
    const alert = await createAlert();
    for (const id of ['nope', `tem_${alert.id}`, '01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const res = await admin.get(`/api/v4/alerts/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ errors: [{ message: expect.any(String) }], code: 404 });
    }
  });

  it('updates only the fields sent; meta merges and null removes a key', { tags: ['moto'] }, async () => {
    const alert = await createAlert({ description: 'keep me', meta: { incident: true, incident_severity: 'SEV-1' }, tag_list: ['a'] });
    const res = await admin.put(`/api/v4/alerts/${alert.id}`, {
      title: 'Renamed',
      urgency: 'critical',
      tags: ['b'],
      meta: { incident_severity: null, incident_message: 'now' },
      status: 'resolved',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Renamed',
      description: 'keep me',
      urgency: 'critical',
      tag_list: ['b'],
      status: 'open',
      meta: { incident: true, incident_message: 'now' },
    });
    expect(res.body.meta).not.toHaveProperty('incident_severity');
    expect(res.body.updated_at > alert.updated_at).toBe(true);
  });

  it('changes destinations and refuses to leave none', async () => {
    const alert = await createAlert();
    const moved = await admin.put(`/api/v4/alerts/${alert.id}`, { destination_team_ids: [teamId], destination_account_user_ids: [] });
    expect(moved.status).toBe(200);
    expect(moved.body.destination_team_ids).toEqual([teamId]);
    expect(moved.body.destination_account_user_ids).toEqual([]);
    const none = await admin.put(`/api/v4/alerts/${alert.id}`, { destination_team_ids: [] });
    expect(none.status).toBe(422);
    const bad = await admin.put(`/api/v4/alerts/${alert.id}`, { urgency: 'loud' });
    expect(bad.status).toBe(422);
  });

  it('deletes with 204, then 404', { tags: ['moto'] }, async () => {
    const alert = await createAlert();
    const res = await admin.delete(`/api/v4/alerts/${alert.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).status).toBe(404);
    expect((await admin.delete(`/api/v4/alerts/${alert.id}`)).status).toBe(404);
    expect((await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(404);
  });

  it('lets a member without roles create, act on and edit alerts', async () => {
    const { client } = await createMember(admin);
    const alert = await createAlert({}, client);
    expect((await client.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    expect((await client.put(`/api/v4/alerts/${alert.id}`, { title: 'mine' })).status).toBe(200);
  });
});

describe('lists', () => {
  let otherAccount: ApiClient;
  const tag = `batch-${Date.now()}`;
  const created: any[] = [];

  beforeAll(async () => {
    // A fresh account: counts start from zero and nothing else is in the way.
    otherAccount = (await signupAccount(service, 'Lists')).client;
    const owner = await whoAmI(otherAccount);
    const team = await seedTeam(owner.accountId, [owner.accountUserId]);
    for (let i = 0; i < 12; i++) {
      const res = await otherAccount.post('/api/v4/alerts', {
        title: `Alert ${i}`,
        urgency: i % 3 === 0 ? 'critical' : 'low',
        destination_account_user_ids: [owner.accountUserId],
        destination_team_ids: i < 4 ? [team] : [],
        tag_list: i % 2 === 0 ? [tag] : ['odd'],
        thirdparty_id: `tp-${i}`,
        meta: i === 5 ? { incident: true } : {},
      });
      expect(res.status).toBe(201);
      created.push(res.body);
    }
    for (const alert of created.slice(0, 3)) expect((await otherAccount.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    expect((await otherAccount.post(`/api/v4/alerts/${created[3].id}/resolve`)).status).toBe(200);
    (otherAccount as any).team = team;
  });

  it('lists newest first with the envelope, exact total and has_more', { tags: ['moto'] }, async () => {
    const res = await otherAccount.get('/api/v4/alerts?limit=5');
    expect(res.status).toBe(200);
    expect(res.body.total_count).toBe(12);
    expect(res.body.has_more).toBe(true);
    expect(res.body.data.map((a: { title: string }) => a.title)).toEqual(['Alert 11', 'Alert 10', 'Alert 9', 'Alert 8', 'Alert 7']);
    const last = await otherAccount.get('/api/v4/alerts?limit=5&page=3');
    expect(last.body.data.map((a: { title: string }) => a.title)).toEqual(['Alert 1', 'Alert 0']);
    expect(last.body.has_more).toBe(false);
    const offset = await otherAccount.get('/api/v4/alerts?limit=2&offset=10');
    expect(offset.body.data.map((a: { title: string }) => a.title)).toEqual(['Alert 1', 'Alert 0']);
  });

  it('filters by status with exact per-status counts', { tags: ['moto'] }, async () => {
    const open = await otherAccount.get('/api/v4/alerts?status=open&limit=3');
    expect(open.body.total_count).toBe(8);
    expect(open.body.has_more).toBe(true);
    expect(open.body.data.every((a: { status: string }) => a.status === 'open')).toBe(true);
    expect(open.body.data[0].title).toBe('Alert 11');
    const acknowledged = await otherAccount.get('/api/v4/alerts?status=acknowledged');
    expect(acknowledged.body.total_count).toBe(3);
    expect(acknowledged.body.data.map((a: { title: string }) => a.title)).toEqual(['Alert 2', 'Alert 1', 'Alert 0']);
    const either = await otherAccount.get('/api/v4/alerts?status=acknowledged&status=resolved');
    expect(either.body.total_count).toBe(4);
    expect(either.body.data.map((a: { title: string }) => a.title)).toEqual(['Alert 3', 'Alert 2', 'Alert 1', 'Alert 0']);
    const oldestFirst = await otherAccount.get('/api/v4/alerts?status=open&sort=created_at&direction=asc&limit=2');
    expect(oldestFirst.body.data.map((a: { title: string }) => a.title)).toEqual(['Alert 4', 'Alert 5']);
  });

  it('filters by urgency, thirdparty_id, tags, team and incident flag', async () => {
    const critical = await otherAccount.get('/api/v4/alerts?urgency=critical');
    expect(critical.body.total_count).toBe(4);
    const tp = await otherAccount.get('/api/v4/alerts?thirdparty_id=tp-7');
    expect(tp.body.total_count).toBe(1);
    expect(tp.body.data[0].title).toBe('Alert 7');
    const tagged = await otherAccount.get(`/api/v4/alerts?tag_list=${tag}&limit=2`);
    expect(tagged.body.total_count).toBe(6);
    expect(tagged.body.data.map((a: { title: string }) => a.title)).toEqual(['Alert 10', 'Alert 8']);
    const alias = await otherAccount.get(`/api/v4/alerts?tags=${tag}&limit=2`);
    expect(alias.body.total_count).toBe(6);
    const team = (otherAccount as any).team;
    const byTeam = await otherAccount.get(`/api/v4/alerts?destination_team_ids=${team}`);
    expect(byTeam.body.total_count).toBe(4);
    const teamAlerts = await otherAccount.get(`/api/v4/teams/tem_${team}/alerts?limit=2`);
    expect(teamAlerts.status).toBe(200);
    expect(teamAlerts.body.total_count).toBe(4);
    expect(teamAlerts.body.data.map((a: { title: string }) => a.title)).toEqual(['Alert 3', 'Alert 2']);
    const teamOpen = await otherAccount.get(`/api/v4/teams/${team}/alerts?status=acknowledged`);
    expect(teamOpen.body.total_count).toBe(3);
    const incidents = await otherAccount.get('/api/v4/alerts?meta.incident=true');
    expect(incidents.body.total_count).toBe(1);
    expect(incidents.body.data[0].title).toBe('Alert 5');
  });

  it('combines filters and ops, and counts exactly', { tags: ['moto'] }, async () => {
    const combined = await otherAccount.get(`/api/v4/alerts?status=open&urgency=critical`);
    expect(combined.body.data.map((a: { title: string }) => a.title)).toEqual(['Alert 9', 'Alert 6']);
    expect(combined.body.total_count).toBe(2);
    const ne = await otherAccount.get('/api/v4/alerts?status=open&ops=status:ne');
    expect(ne.body.total_count).toBe(4);
    const begins = await otherAccount.get('/api/v4/alerts?title=Alert%201&ops=title:beginsWith');
    expect(begins.body.total_count).toBe(3);
    const between = await otherAccount.get(`/api/v4/alerts?tiny_id=2..4&ops=tiny_id:between`);
    expect(between.body.total_count).toBe(3);
    const sorted = await otherAccount.get('/api/v4/alerts?sort=title&direction=desc&limit=1');
    expect(sorted.body.data[0].title).toBe('Alert 9');
    const q = await otherAccount.get('/api/v4/alerts?q=alert%2011');
    expect(q.body.total_count).toBe(1);
  });

  it('rejects unknown filters and out-of-range limits with 422', async () => {
    expect((await otherAccount.get('/api/v4/alerts?colour=red')).status).toBe(422);
    expect((await otherAccount.get('/api/v4/alerts?limit=101')).status).toBe(422);
    expect((await otherAccount.get('/api/v4/alerts?limit=0')).status).toBe(422);
    expect((await otherAccount.get('/api/v4/alerts?page=0')).status).toBe(422);
    expect((await otherAccount.get('/api/v4/alerts?ops=status:like')).status).toBe(422);
  });

  it('404s a team of another account or no team', async () => {
    expect((await admin.get(`/api/v4/teams/${(otherAccount as any).team}/alerts`)).status).toBe(404);
    expect((await admin.get('/api/v4/teams/nope/alerts')).status).toBe(404);
  });

  it('keeps per-status counters equal to the real numbers after many changes', { tags: ['moto'] }, async () => {
    const owner = await whoAmI(otherAccount);
    await forceStatus(owner.accountId, created[4].id, 'dropped');
    await forceStatus(owner.accountId, created[5].id, 'suppressed');
    await otherAccount.post(`/api/v4/alerts/${created[4].id}/acknowledge`);
    await otherAccount.post(`/api/v4/alerts/${created[5].id}/resolve`); // refused: suppressed
    await otherAccount.delete(`/api/v4/alerts/${created[6].id}`);
    await otherAccount.put(`/api/v4/alerts/${created[7].id}`, { urgency: 'critical' });
    for (const status of ['open', 'acknowledged', 'resolved', 'dropped', 'suppressed']) {
      const counted = await otherAccount.get(`/api/v4/alerts?status=${status}&limit=1`);
      // beginsWith is not served by the index: the engine reads and counts every alert itself.
      const real = await otherAccount.get(`/api/v4/alerts?status=${status}&ops=status:beginsWith&limit=1`);
      expect(counted.body.total_count, status).toBe(real.body.total_count);
    }
    const total = await otherAccount.get('/api/v4/alerts?limit=1');
    expect(total.body.total_count).toBe(11);
    // Critical were 0, 3, 6, 9; 6 was deleted and 7 raised.
    const critical = await otherAccount.get('/api/v4/alerts?urgency=critical&limit=1');
    expect(critical.body.total_count).toBe(4);
    const realCritical = await otherAccount.get('/api/v4/alerts?urgency=critical&ops=urgency:beginsWith&limit=1');
    expect(realCritical.body.total_count).toBe(4);
  });
});

describe('comments', () => {
  it('adds comments to an alert and lists them in the envelope', async () => {
    const alert = await createAlert();
    const first = await admin.post(`/api/v4/alerts/${alert.id}/comments`, { text: 'looking' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ text: 'looking', alert_id: alert.id, account_user_id: me.accountUserId });
    expect(first.body.prefix_id).toBe(`cmt_${first.body.id}`);
    await admin.post(`/api/v4/alerts/${alert.prefix_id}/comments`, { text: 'fixed' });
    const list = await admin.get(`/api/v4/alerts/${alert.id}/comments`);
    expect(list.status).toBe(200);
    expect(list.body.total_count).toBe(2);
    expect(list.body.has_more).toBe(false);
    expect(list.body.data.map((c: { text: string }) => c.text)).toEqual(['fixed', 'looking']);
  });

  it('needs text (422) and an existing alert (404)', async () => {
    const alert = await createAlert();
    const res = await admin.post(`/api/v4/alerts/${alert.id}/comments`, {});
    expect(res.status).toBe(422);
    expect(res.body.errors[0].message).toBe("text can't be blank");
    expect((await admin.post('/api/v4/alerts/01ARZ3NDEKTSV4RRFFQ69G5FAV/comments', { text: 'x' })).status).toBe(404);
    expect((await admin.get('/api/v4/alerts/01ARZ3NDEKTSV4RRFFQ69G5FAV/comments')).status).toBe(404);
  });
});

describe('account isolation', () => {
  it('hides alerts, comments and timelines of another account (404, never data)', { tags: ['moto'] }, async () => {
    const alert = await createAlert();
    const { client: stranger } = await signupAccount(service, 'Stranger');
    const paths = [
      ['GET', `/api/v4/alerts/${alert.id}`],
      ['PUT', `/api/v4/alerts/${alert.id}`],
      ['DELETE', `/api/v4/alerts/${alert.id}`],
      ['POST', `/api/v4/alerts/${alert.id}/acknowledge`],
      ['POST', `/api/v4/alerts/${alert.id}/resolve`],
      ['POST', `/api/v4/alerts/${alert.id}/reject`],
      ['GET', `/api/v4/alerts/${alert.id}/comments`],
      ['POST', `/api/v4/alerts/${alert.id}/comments`],
      ['GET', `/alert/${alert.prefix_id}`],
      ['POST', `/alert/${alert.prefix_id}/archive`],
      ['POST', `/alert/${alert.prefix_id}/handoff`],
      ['GET', `/incident/${alert.prefix_id}/logs`],
      ['GET', `/log/log_${alert.id}`],
      ['GET', `/api/v4/teams/${teamId}/alerts`],
    ] as const;
    for (const [method, path] of paths) {
      const res = await stranger.request(
        method,
        path,
        method === 'GET' || method === 'DELETE' ? undefined : { title: 'x', text: 'x', to: `usr_${me.userId}` },
      );
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.text).not.toContain(alert.title);
    }
    const list = await stranger.get('/api/v4/alerts');
    expect(list.body.data.some((a: { id: string }) => a.id === alert.id)).toBe(false);
    const timeline = await stranger.get(`/log?owner_id=${alert.prefix_id}`);
    expect(timeline.body.total_count).toBe(0);
    // Naming the first account's user as a destination is an unknown reference there.
    const foreign = await stranger.post('/api/v4/alerts', { title: 'x', urgency: 'low', destination_account_user_ids: [me.accountUserId] });
    expect(foreign.status).toBe(422);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');
  });
});
