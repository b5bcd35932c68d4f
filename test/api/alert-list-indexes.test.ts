// Alert lists of a large account (lib/alerts/ACCESS-PATTERNS.md): with the read budget set low, a
// few hundred alerts make the account "large", so every indexed shape (status + urgency, destination
// team + status, created_at ranges, sorts by tiny id and updated_at, q over the word index) is
// answered by its index, and must give exactly what an in-memory filter of every alert gives. Shapes
// outside the indexes are refused (422 / 400) instead of read whole.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import { eventually, forceStatus, seedTeam, whoAmI, type Me } from '../alerts/support';
import { reindexAlerts } from '../../lib/alerts/bulk-store';
import { readWordGroup } from '../../lib/alerts/word-store';
import { db, tableName } from '../../lib/store/client';
import { deleteItem, getItem, putItem } from '../../lib/store/items';
import { UpdateCommand } from '../../lib/store/commands';
import { ulidBoundsOf } from '../../lib/ids';

const BUDGET = 40;
const COUNT = 180;

let service: TestService;
let admin: ApiClient;
let me: Me;
const teams: string[] = [];

useService(
  async (started) => {
    service = started;
    admin = service.admin;
    me = await whoAmI(admin);
    for (let i = 0; i < 3; i++) teams.push(await seedTeam(me.accountId, [me.accountUserId]));
  },
  { env: { LIST_READ_BUDGET: String(BUDGET) } },
);

// A small deterministic random source: failures reproduce.
let seed = 20261123;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

const WORDS = ['kestrel', 'kestrels', 'disk', 'database', 'latency', 'cpu', 'memory', 'Ünïcode', 'web-1', 'api', 'queue', 'payments'];
const URGENCIES = ['low', 'medium', 'high', 'critical'];
const STATUSES = ['open', 'acknowledged', 'resolved', 'dropped'] as const;

interface Alert {
  id: string;
  tiny_id: number;
  title: string;
  description: string;
  status: string;
  urgency: string;
  destination_team_ids: string[];
  created_at: string;
  updated_at: string;
}

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The reference meaning of q over the word index: every word of q begins a word of the text. */
const qMatches = (alert: Alert, q: string) => {
  const words = [...wordsOf(alert.title), ...wordsOf(alert.description)];
  return wordsOf(q).every((term) => words.some((word) => word.startsWith(term)));
};

async function everyAlert(): Promise<Alert[]> {
  const all: Alert[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await admin.get(`/api/v4/alerts?limit=100&offset=${offset}`);
    expect(res.status, res.text).toBe(200);
    all.push(...res.body.data);
    if (!res.body.has_more) return all;
  }
}

let reference: Alert[] = [];

beforeAll(async () => {
  for (let start = 0; start < COUNT; start += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, COUNT - start) }, async () => {
        const title = `${pick(WORDS)} ${pick(WORDS)} on host-${Math.floor(random() * 50)}`;
        const res = await admin.post('/api/v4/alerts', {
          title,
          description: random() < 0.5 ? `${pick(WORDS)} is ${pick(['slow', 'down', 'full'])}` : undefined,
          urgency: pick(URGENCIES),
          destination_team_ids: random() < 0.8 ? [`tem_${pick(teams)}`] : [],
          destination_account_user_ids: [me.accountUserId],
        });
        expect(res.status, res.text).toBe(201);
      }),
    );
  }
  // Routing settles (teams without a policy drop their alerts), then statuses are spread out.
  await eventually(everyAlert, (alerts) => alerts.length === COUNT && alerts.every((a) => a.status !== 'queued'));
  await settle(service);
  const created = await everyAlert();
  for (let start = 0; start < created.length; start += 20) {
    await Promise.all(created.slice(start, start + 20).map((alert) => forceStatus(me.accountId, alert.id, pick(STATUSES))));
  }
  reference = await everyAlert();
}, 120_000);

type Sort = { path: 'id' | 'tiny_id' | 'updated_at' | 'created_at'; direction: 'asc' | 'desc' };

function expected(filter: (alert: Alert) => boolean, sort: Sort = { path: 'id', direction: 'desc' }): string[] {
  const key = (alert: Alert) => (sort.path === 'tiny_id' ? alert.tiny_id : sort.path === 'id' ? alert.id : alert[sort.path]);
  const sign = sort.direction === 'asc' ? 1 : -1;
  return reference
    .filter(filter)
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return (x < y ? -1 : 1) * sign;
      return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * sign;
    })
    .map((alert) => alert.id);
}

/** Pages through a query and checks every page and total_count against the reference. */
async function checkQuery(query: string, want: string[], base = '/api/v4/alerts') {
  for (const [limit, offset] of [
    [7, 0],
    [7, 7],
    [100, 0],
    [5, Math.max(0, want.length - 3)],
  ]) {
    const res = await admin.get(`${base}?${query}${query ? '&' : ''}limit=${limit}&offset=${offset}`);
    expect(res.status, `${query}: ${res.text}`).toBe(200);
    expect(res.body.total_count, query).toBe(want.length);
    expect(
      res.body.data.map((a: { id: string }) => a.id),
      `${query} limit=${limit} offset=${offset}`,
    ).toEqual(want.slice(offset, offset + limit));
    expect(res.body.has_more).toBe(offset + limit < want.length);
  }
}

describe('indexed alert lists of a large account', () => {
  it('is larger than the budget, and spread over statuses, urgencies and teams', () => {
    expect(reference.length).toBe(COUNT);
    expect(new Set(reference.map((a) => a.status)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(reference.map((a) => a.urgency)).size).toBe(4);
  });

  it('answers plain lists, status and urgency as before', async () => {
    await checkQuery(
      '',
      expected(() => true),
    );
    await checkQuery(
      'status=open',
      expected((a) => a.status === 'open'),
    );
    await checkQuery(
      'status=open&status=resolved',
      expected((a) => a.status === 'open' || a.status === 'resolved'),
    );
    await checkQuery(
      'urgency=low',
      expected((a) => a.urgency === 'low'),
    );
  });

  it('answers status + urgency from gsi4, with repeated values', async () => {
    await checkQuery(
      'status=acknowledged&urgency=high',
      expected((a) => a.status === 'acknowledged' && a.urgency === 'high'),
    );
    await checkQuery(
      'urgency=low&status=open&sort=created_at',
      expected((a) => a.status === 'open' && a.urgency === 'low', { path: 'id', direction: 'asc' }),
    );
    await checkQuery(
      'status=open&status=dropped&urgency=critical&urgency=low',
      expected((a) => ['open', 'dropped'].includes(a.status) && ['critical', 'low'].includes(a.urgency)),
    );
  });

  it('answers a destination team with or without status', async () => {
    for (const team of teams) {
      await checkQuery(
        `destination_team_ids=${team}`,
        expected((a) => a.destination_team_ids.includes(team)),
      );
      await checkQuery(
        `destination_team_ids=${team}&status=resolved`,
        expected((a) => a.destination_team_ids.includes(team) && a.status === 'resolved'),
      );
    }
    await checkQuery(
      `destination_team_ids=${teams[0]}&status=open&sort=id&direction=asc`,
      expected((a) => a.destination_team_ids.includes(teams[0]) && a.status === 'open', { path: 'id', direction: 'asc' }),
    );
  });

  it('answers created_at between two instants, with or without status, and open-ended ranges', async () => {
    const times = reference.map((a) => a.created_at).sort();
    const [from, to] = [times[30], times[110]];
    const inRange = (a: Alert) => a.created_at >= from && a.created_at <= to;
    await checkQuery(`created_at=${from}..${to}&ops=created_at:between`, expected(inRange));
    await checkQuery(
      `created_at=${from}..${to}&ops=created_at:between&status=open`,
      expected((a) => inRange(a) && a.status === 'open'),
    );
    await checkQuery(
      `created_at=${from}..${to}&ops=created_at:between&sort=created_at&direction=asc`,
      expected(inRange, { path: 'id', direction: 'asc' }),
    );
    await checkQuery(
      `created_at=${to}&ops=created_at:gte`,
      expected((a) => a.created_at >= to),
    );
    await checkQuery(
      `created_at=${from}&ops=created_at:lt&status=resolved`,
      expected((a) => a.created_at < from && a.status === 'resolved'),
    );
  });

  it('sorts by tiny id, updated_at and created_at in either direction', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      await checkQuery(
        `sort=tiny_id&direction=${direction}`,
        expected(() => true, { path: 'tiny_id', direction }),
      );
      await checkQuery(
        `sort=updated_at&direction=${direction}`,
        expected(() => true, { path: 'updated_at', direction }),
      );
      await checkQuery(
        `sort=created_at&direction=${direction}`,
        expected(() => true, { path: 'id', direction }),
      );
    }
  });

  it('answers the earlier interface from the same indexes', async () => {
    const res = await admin.get('/alert?status=open&urgency=low&limit=100');
    expect(res.status, res.text).toBe(200);
    const want = expected((a) => a.status === 'open' && a.urgency === 'low');
    expect(res.body.total_count).toBe(want.length);
    expect(res.body.data.map((a: { id: string }) => a.id)).toEqual(want.map((id) => `alt_${id}`));
    const sorted = await admin.get('/alert?sort=-tinyId&limit=5');
    expect(sorted.body.data.map((a: { tinyId: number }) => a.tinyId)).toEqual(
      reference
        .map((a) => a.tiny_id)
        .sort((a, b) => b - a)
        .slice(0, 5),
    );
  });

  it('searches whole words and word prefixes, case-insensitively, every word of q', async () => {
    for (const q of ['kestrel', 'KES', 'kestrels', 'database', 'dat', 'ünï', 'web', 'host', 'disk slow', 'kes DOWN', 'payments cpu']) {
      await checkQuery(
        `q=${encodeURIComponent(q)}`,
        expected((a) => qMatches(a, q)),
      );
    }
    await checkQuery(
      'q=kestrel&sort=created_at&direction=asc',
      expected((a) => qMatches(a, 'kestrel'), { path: 'id', direction: 'asc' }),
    );
  });

  it('combines q with other filters within the budget, on the word index candidates', async () => {
    const want = expected((a) => qMatches(a, 'payments') && a.status === 'open');
    const res = await admin.get('/api/v4/alerts?q=payments&status=open&limit=100');
    expect(res.status, res.text).toBe(200);
    expect(res.body.total_count).toBe(want.length);
    expect(res.body.data.map((a: { id: string }) => a.id)).toEqual(want);
  });
});

describe('the word index follows every write', () => {
  it('rewrites the words when the title or description changes, and forgets a deleted alert', async () => {
    const created = await admin.post('/api/v4/alerts', {
      title: 'Zanzibar gateway timeout',
      description: 'upstream quokka unreachable',
      urgency: 'low',
      destination_account_user_ids: [me.accountUserId],
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const found = async (q: string) => (await admin.get(`/api/v4/alerts?q=${encodeURIComponent(q)}`)).body;
    expect((await found('zanzibar')).data.map((a: Alert) => a.id)).toEqual([id]);
    expect((await found('quok')).total_count).toBe(1);

    const renamed = await admin.put(`/api/v4/alerts/${id}`, { title: 'Xylophone gateway timeout', description: 'upstream wombat' });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await found('zanzibar')).total_count).toBe(0);
    expect((await found('quokka')).total_count).toBe(0);
    expect((await found('xylo')).data.map((a: Alert) => a.id)).toEqual([id]);
    expect((await found('wombat gateway')).data.map((a: Alert) => a.id)).toEqual([id]);
    // The dropped groups' items are gone, not only filtered out.
    expect((await readWordGroup(me.accountId, 'zan', 100))!.has(id)).toBe(false);
    expect((await readWordGroup(me.accountId, 'quo', 100))!.has(id)).toBe(false);
    expect((await readWordGroup(me.accountId, 'xyl', 100))!.get(id)).toEqual(['xylophone']);

    expect((await admin.delete(`/api/v4/alerts/${id}`)).status).toBe(204);
    expect((await found('xylophone')).total_count).toBe(0);
    expect((await readWordGroup(me.accountId, 'xyl', 100))!.has(id)).toBe(false);
    expect((await readWordGroup(me.accountId, 'wom', 100))!.has(id)).toBe(false);
  });

  it('checks candidates against the alert and removes word items left by a crash', async () => {
    // A word item of an alert that does not exist (a crash after the words, before the alert), old
    // enough that no create can still be under way.
    const orphan = `${ulidBoundsOf(Date.now() - 3_600_000).low.slice(0, 10)}ORPHAN00000000`.slice(0, 26);
    const partition = `A#${me.accountId}#ALERT#W#kes`;
    await putItem({ pk: partition, sk: orphan, w: ['kestrel'], v: 1 });
    const want = expected((a) => qMatches(a, 'kestrel'));
    expect((await readWordGroup(me.accountId, 'kes', 1000))!.has(orphan)).toBe(true);
    const res = await admin.get('/api/v4/alerts?q=kestrel&limit=100');
    expect(res.body.data.map((a: Alert) => a.id)).toEqual(want);
    expect(res.body.total_count).toBe(want.length);
    expect((await readWordGroup(me.accountId, 'kes', 1000))!.has(orphan)).toBe(false);
  });

  it('reindexes alerts stored before the indexes, or whose links a crash cut short', async () => {
    const target = reference.find((a) => a.destination_team_ids.length > 0 && a.title.includes('kestrel') && a.status === 'resolved')!;
    const team = target.destination_team_ids[0];
    // As an alert stored before gsi4..gsi6, with its destination-team link and its words lost.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `A#${me.accountId}#ALERT`, sk: target.id },
        UpdateExpression: 'REMOVE gsi4pk, gsi4sk, gsi5pk, gsi5sk, gsi6pk, gsi6sk',
      }),
    );
    await deleteItem({ pk: `A#${me.accountId}#ALERT#L#dteam#${team}#resolved`, sk: target.id });
    await deleteItem({ pk: `A#${me.accountId}#ALERT#W#kes`, sk: target.id });
    const ids = async (query: string) => (await admin.get(`/api/v4/alerts?${query}&limit=100`)).body.data.map((a: Alert) => a.id);
    expect(await ids(`destination_team_ids=${team}&status=resolved`)).not.toContain(target.id);
    expect(await ids('q=kestrel')).not.toContain(target.id);
    expect(await ids(`status=resolved&urgency=${target.urgency}`)).not.toContain(target.id);

    expect(await reindexAlerts(me.accountId)).toBeGreaterThanOrEqual(COUNT);
    expect(await ids(`destination_team_ids=${team}&status=resolved`)).toContain(target.id);
    expect(await ids('q=kestrel')).toContain(target.id);
    expect(await ids(`status=resolved&urgency=${target.urgency}`)).toContain(target.id);
    await checkQuery(
      'sort=tiny_id&direction=desc',
      expected(() => true, { path: 'tiny_id', direction: 'desc' }),
    );
  });

  it('keeps status + urgency and team + status exact across transitions', async () => {
    const target = reference.find((a) => a.status === 'open' && a.destination_team_ids.length > 0)!;
    const team = target.destination_team_ids[0];
    const before = (await admin.get(`/api/v4/alerts?status=acknowledged&urgency=${target.urgency}`)).body.total_count;
    const teamBefore = (await admin.get(`/api/v4/alerts?destination_team_ids=${team}&status=acknowledged`)).body.total_count;
    const acknowledged = await admin.post(`/api/v4/alerts/${target.id}/acknowledge`);
    expect(acknowledged.status).toBe(200);
    // The reference follows the change, so the tests after this one expect the alert as it is now.
    reference[reference.indexOf(target)] = (await admin.get(`/api/v4/alerts/${target.id}`)).body;
    const after = await admin.get(`/api/v4/alerts?status=acknowledged&urgency=${target.urgency}&limit=100`);
    expect(after.body.total_count).toBe(before + 1);
    expect(after.body.data.map((a: Alert) => a.id)).toContain(target.id);
    const teamAfter = await admin.get(`/api/v4/alerts?destination_team_ids=${team}&status=acknowledged&limit=100`);
    expect(teamAfter.body.total_count).toBe(teamBefore + 1);
    expect(teamAfter.body.data.map((a: Alert) => a.id)).toContain(target.id);
    const stillOpen = await admin.get(`/api/v4/alerts?destination_team_ids=${team}&status=open&limit=100`);
    expect(stillOpen.body.data.map((a: Alert) => a.id)).not.toContain(target.id);
    const byUpdate = await admin.get('/api/v4/alerts?sort=updated_at&direction=desc&limit=1');
    expect(byUpdate.body.data[0].id).toBe(target.id);
  });
});

describe("a team's alerts", () => {
  const teamLink = (team: string, id: string) => ({ pk: `A#${me.accountId}#ALERT#L#team#${team}`, sk: id });

  it('are read from the destination-team links; alerts stored with a team link too are listed once, and reindex or a delete removes it', async () => {
    const ofTeam = (team: string) => expected((a) => a.destination_team_ids.includes(team));
    for (const team of teams) await checkQuery('', ofTeam(team), `/api/v4/teams/${team}/alerts`);
    const target = reference.find((a) => a.destination_team_ids.length > 0)!;
    const team = target.destination_team_ids[0];
    expect(await getItem(teamLink(team, target.id))).toBeNull();

    // As alerts stored before: a team link for each destination team beside its dteam link.
    const former = reference.filter((a) => a.destination_team_ids.includes(team)).slice(0, 9);
    for (const alert of former) await putItem(teamLink(team, alert.id));
    await checkQuery('', ofTeam(team), `/api/v4/teams/${team}/alerts`);
    await reindexAlerts(me.accountId);
    for (const alert of former) expect(await getItem(teamLink(team, alert.id))).toBeNull();

    const created = await admin.post('/api/v4/alerts', { title: 'team link of before', urgency: 'low', destination_team_ids: [team] });
    expect(created.status, created.text).toBe(201);
    await putItem(teamLink(team, created.body.id));
    expect((await admin.delete(`/api/v4/alerts/${created.body.id}`)).status).toBe(204);
    expect(await getItem(teamLink(team, created.body.id))).toBeNull();
    await checkQuery('', ofTeam(team), `/api/v4/teams/${team}/alerts`);
  });
});

describe('queries outside the indexes', () => {
  it.each([
    ['sort=title', 'sort by created_at, updated_at or tiny_id'],
    ['title=kestrel&ops=title:beginsWith', 'status'],
    ['q=ho', 'q with words of at least 3 characters'],
    ['status=open&tag_list=none&ops=tag_list:ne', 'destination_team_ids'],
  ])('refuses %s with 422 naming the indexed shapes', async (query, named) => {
    const res = await admin.get(`/api/v4/alerts?${query}`);
    expect(res.status, res.text).toBe(422);
    expect(res.body.code).toBe(422);
    expect(res.body.errors[0].message).toContain(`more than ${BUDGET}`);
    expect(res.body.errors[0].message).toContain(named);
  });

  it('is a 400 on the earlier interface', async () => {
    const res = await admin.get('/alert?sort=-title');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toContain('indexed filter or sort');
  });

  it('still answers an unindexed sort whose candidates (the narrowest index) fit the budget', async () => {
    const want = reference
      .filter((a) => a.status === 'open' && a.urgency === 'low')
      .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id < b.id ? -1 : 1))
      .map((a) => a.id);
    expect(want.length).toBeLessThanOrEqual(BUDGET);
    const res = await admin.get('/api/v4/alerts?status=open&urgency=low&sort=title&limit=100');
    expect(res.status, res.text).toBe(200);
    expect(res.body.total_count).toBe(want.length);
    expect(res.body.data.map((a: Alert) => a.id)).toEqual(want);
    // A team's alerts beyond the budget are refused even with a status (the team view has no status index).
    const team = await admin.get(`/api/v4/teams/${teams[1]}/alerts?status=open&sort=title`);
    expect(team.status).toBe(422);
  });

  it('bounds the other collections too: every log of the account is over the budget, one timeline is not', async () => {
    const all = await admin.get('/log?q=nothing-matches');
    expect(all.status, all.text).toBe(400);
    expect(all.body.errors[0].message).toContain(`more than ${BUDGET}`);
    const timeline = await admin.get(`/log?owner_id=alt_${reference[0].id}&q=created`);
    expect(timeline.status, timeline.text).toBe(200);
    expect(timeline.body.total_count).toBeGreaterThanOrEqual(1);
  });
});

describe('alerts stored with the former gsi1/gsi2 copies', () => {
  const formerKeys = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'];
  const stored = (id: string) => getItem({ pk: `A#${me.accountId}#ALERT`, sk: id });
  /** As an alert stored before status and urgency moved to gsi4: whole-item copies in gsi1 and gsi2. */
  async function storeTheFormerWay(alert: Alert) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `A#${me.accountId}#ALERT`, sk: alert.id },
        UpdateExpression: 'SET gsi1pk = :s, gsi1sk = :id, gsi2pk = :u, gsi2sk = :id',
        ExpressionAttributeValues: {
          ':s': `A#${me.accountId}#ALERT#STATUS#${alert.status}`,
          ':u': `A#${me.accountId}#ALERT#URGENCY#${alert.urgency}`,
          ':id': alert.id,
        },
      }),
    );
  }

  // Last: it acknowledges an open alert, and the refusals above count the open ones.
  it('new and changed alerts hold none; an old one is listed once by status and urgency, and its transition removes them', async () => {
    const target = reference.find((a) => a.status === 'open')!;
    const untouched = reference.find((a) => a.status === 'resolved')!;
    expect(Object.keys((await stored(untouched.id))!)).not.toContain('gsi1pk');
    await storeTheFormerWay(target);
    await storeTheFormerWay(untouched);
    expect(Object.keys((await stored(target.id))!)).toEqual(expect.arrayContaining(formerKeys));
    await checkQuery(
      'status=open',
      expected((a) => a.status === 'open'),
    );
    await checkQuery(
      `urgency=${target.urgency}`,
      expected((a) => a.urgency === target.urgency),
    );

    const acknowledged = await admin.post(`/api/v4/alerts/${target.id}/acknowledge`);
    expect(acknowledged.status).toBe(200);
    reference[reference.indexOf(target)] = (await admin.get(`/api/v4/alerts/${target.id}`)).body;
    const keys = Object.keys((await stored(target.id))!);
    for (const key of formerKeys) expect(keys).not.toContain(key);
    await checkQuery(
      'status=open',
      expected((a) => a.status === 'open'),
    );
    await checkQuery(
      'status=acknowledged',
      expected((a) => a.status === 'acknowledged'),
    );

    // reindex-alerts removes them from the alerts no write has touched since.
    expect(Object.keys((await stored(untouched.id))!)).toContain('gsi1pk');
    await reindexAlerts(me.accountId);
    expect(Object.keys((await stored(untouched.id))!)).not.toContain('gsi1pk');
    expect(Object.keys((await stored(untouched.id))!)).not.toContain('gsi2pk');
  });
});

// Last: the hand-off below moves an open alert to another status (a team without a policy drops
// it), which the budget-bound refusals above count on.
describe("a team's alerts with status=", () => {
  it('are its links of those statuses and the alerts assigned to it alone, with exact totals as they move', async () => {
    const team = teams[1];
    const base = `/api/v4/teams/${team}/alerts`;
    // An alert of another team (or of none) handed off to this team: assigned to it, none of its destinations.
    const handed = reference.find((a) => !a.destination_team_ids.includes(team) && ['open', 'acknowledged'].includes(a.status))!;
    const handoff = await admin.post(`/alert/${handed.id}/handoff`, { to: `tem_${team}` });
    expect(handoff.status, handoff.text).toBe(200);
    await settle(service);
    const refresh = async () => {
      const now = (await admin.get(`/api/v4/alerts/${handed.id}`)).body as Alert;
      reference[reference.findIndex((a) => a.id === handed.id)] = now;
      return now.status;
    };
    const ofTeam = (a: Alert) => a.destination_team_ids.includes(team) || a.id === handed.id;
    expect(reference.filter(ofTeam).length).toBeGreaterThan(BUDGET);
    const check = async (statuses: string[]) =>
      checkQuery(
        statuses.map((s) => `status=${s}`).join('&'),
        expected((a) => ofTeam(a) && statuses.includes(a.status)),
        base,
      );
    const listed = async (status: string) =>
      ((await admin.get(`${base}?status=${status}&limit=100`)).body.data as Alert[]).map((a) => a.id).includes(handed.id);

    const status = await refresh(); // open, or dropped by the team's (absent) policy
    for (const statuses of [['open'], ['resolved'], ['dropped'], ['open', 'acknowledged', 'open']]) await check(statuses);
    expect(await listed(status)).toBe(true);

    // Resolved, it leaves that status's list for the resolved one (totals follow).
    expect((await admin.post(`/api/v4/alerts/${handed.id}/resolve`)).status).toBe(200);
    await settle(service);
    expect(await refresh()).toBe('resolved');
    for (const statuses of [[status], ['resolved']]) await check(statuses);
    expect(await listed(status)).toBe(false);
    expect(await listed('resolved')).toBe(true);

    // Alerts stored before issue 21 hold a team link for every team, of any status: past the list
    // budget the status path gives up (the general path refuses), and after the reindex it answers.
    const teamLink = (id: string) => ({ pk: `A#${me.accountId}#ALERT#L#team#${team}`, sk: id });
    for (const alert of reference.filter(ofTeam)) await putItem(teamLink(alert.id));
    // No alert of the team is queued: every link read is left out by the check, and there are more than the budget.
    const before = await admin.get(`${base}?status=queued&limit=7`);
    expect(before.status, before.text).toBe(422);
    await reindexAlerts(me.accountId);
    await check(['queued']);
    await check(['acknowledged']);
  });
});
