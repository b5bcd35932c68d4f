// Lists of one owner's items at scale (issue 14): an object's logs (an alert's timeline, an
// integration's request log, /log?owner_id=…) and notifications by alert or by account user carry
// the exact total from their owner count. Every page, in both directions and at every offset, is
// compared with the owner's index partition read whole, after concurrent writes to one owner
// through each write path; the recount finds the owner counts exact and repairs one a crash left off.
// @moto: owner counters (ADD under conditions) and pages in both directions.
import { describe, expect, it } from 'vitest';
import { storeIncomingLog } from '../../lib/integrations/ingest/incoming-log';
import { newId } from '../../lib/ids';
import type { LogRecord } from '../../lib/logs/records';
import { importLogs, listLogsOfOwner } from '../../lib/logs/store';
import type { NotificationRecord } from '../../lib/notify/records';
import {
  countNotificationsOfAlert,
  importNotifications,
  insertNotification,
  listNotificationsOfAccountUser,
  listNotificationsOfAlert,
} from '../../lib/notify/store';
import { UpdateCommand } from '../../lib/store/commands';
import { db, tableName } from '../../lib/store/client';
import { adjustOwnerCounts, readOwnerCount } from '../../lib/store/counters';
import { deleteItem, getItem, putItem } from '../../lib/store/items';
import { recountCounter } from '../../lib/store/recount';
import type { ApiClient } from '../support/api-client';
import { settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import { whoAmI, type Me } from '../alerts/support';
import { createIntegration } from '../integrations/support';
import { createTeam } from '../teams/helpers';

let service: TestService;
let admin: ApiClient;
let me: Me;

useService(async (started) => {
  service = started;
  admin = service.admin;
  me = await whoAmI(admin);
});

interface Walk {
  ids: string[];
  totals: number[];
  hasMore: boolean[];
}

/** Every page of a list, `limit` at a time, by offset (or by page number on the earlier interface). */
async function walk(path: string, limit: number, byPage = false): Promise<Walk> {
  const out: Walk = { ids: [], totals: [], hasMore: [] };
  const sep = path.includes('?') ? '&' : '?';
  for (let offset = 0, page = 1; ; offset += limit, page++) {
    const res = await admin.get(`${path}${sep}limit=${limit}&${byPage ? `page=${page}` : `offset=${offset}`}`);
    expect(res.status, res.text).toBe(200);
    out.ids.push(...res.body.data.map((row: { id: string }) => row.id));
    out.totals.push(res.body.total_count);
    out.hasMore.push(res.body.has_more);
    if (!res.body.has_more) return out;
    if (out.totals.length > 200) throw new Error(`${path}: no end of pages`);
  }
}

/** A walk answers exactly the reference: its items in order, the exact total on every page. */
function expectWalk(found: Walk, reference: string[]): void {
  expect(found.ids).toEqual(reference);
  expect(new Set(found.totals)).toEqual(new Set([reference.length]));
  expect(found.hasMore.at(-1)).toBe(false);
  expect(found.hasMore.slice(0, -1).every(Boolean)).toBe(true);
}

const logIds = async (owner: string) => (await listLogsOfOwner(me.accountId, owner)).map((log) => `log_${log.id}`);

describe("an integration's request log", () => {
  it('counts concurrent requests exactly (the group-committed incoming path and real webhooks) and pages like its partition', async () => {
    const integration = await createIntegration(admin, { urgency: 'low' });
    const owner = integration.prefix_id;
    const received = Date.now();
    const stored = Array.from({ length: 60 }, (_, i) =>
      storeIncomingLog(
        {
          integrationId: integration.id,
          accountId: me.accountId,
          body: JSON.stringify({ n: i }),
          headers: { 'content-type': 'application/json' },
          query: '',
          receivedAt: received + i,
          sourceIp: '127.0.0.1',
        },
        { status: 'ignored', reason: 'test', result: {} },
      ),
    );
    const posted = Array.from({ length: 12 }, (_, i) =>
      service.anonymous.post(`/integration/${owner}`, { event_type: 'create', Id: `owner-count-${i}`, Title: `Request ${i}` }),
    );
    const answers = await Promise.all(posted);
    await Promise.all(stored);
    for (const answer of answers) expect(answer.status, answer.text).toBeLessThan(300);

    const reference = await logIds(owner);
    expect(reference).toHaveLength(72);
    expect(await readOwnerCount(me.accountId, 'LOG', owner)).toBe(72);
    expectWalk(await walk(`/log?owner_id=${owner}`, 9), reference);
    expectWalk(await walk(`/log?owner_id=${owner}&sort=createdAt&direction=desc`, 10), [...reference].reverse());
    expectWalk(await walk(`/log?owner_id=${owner}&sort=id`, 25, true), reference);
    // Another filter reads the owner's partition (within the read budget): the same total.
    const incoming = await admin.get(`/log?owner_id=${owner}&subtype=INCOMING&limit=5`);
    expect(incoming.body.total_count).toBe(72);
  });
});

describe("an object's logs", () => {
  it("lists concurrent POST /log notes and an alert's own timeline entries under the alert, exactly", async () => {
    const alert = (await admin.post('/api/v4/alerts', { title: 'Owned', urgency: 'low', destination_account_user_ids: [me.accountUserId] }))
      .body;
    const owner = alert.prefix_id as string;
    const notes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => admin.post('/log', { content: `note ${i}`, owner_id: owner, source_id: `usr_${me.userId}` })),
    );
    for (const note of notes) expect(note.status, note.text).toBe(201);
    expect((await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    expect((await admin.post(`/api/v4/alerts/${alert.id}/resolve`)).status).toBe(200);
    // Routing and escalation write their entries after the answers: read the timeline once they are at rest.
    await settle(service);
    const reference = await logIds(owner);
    expect(reference.length).toBeGreaterThanOrEqual(33);
    // An alert's timeline is counted from its own (short) partition: no owner count is written for it.
    expect(await readOwnerCount(me.accountId, 'LOG', owner)).toBeNull();
    expectWalk(await walk(`/incident/${alert.id}/logs`, 8), reference);
    expectWalk(await walk(`/incident/${alert.id}/logs?sort=createdAt&direction=desc`, 8), [...reference].reverse());
    expectWalk(await walk(`/log?owner_id=${owner}`, 11), reference);

    // A team owns notes too: any kind of owner is counted the same way.
    const team = await createTeam(admin, {
      name: 'Owner counts',
      member_account_user_ids: [me.accountUserId],
      admin_account_user_ids: [me.accountUserId],
    });
    const teamOwner = `tem_${team.id}`;
    const teamNotes = await Promise.all(
      Array.from({ length: 7 }, () => admin.post('/log', { content: 'team note', owner_id: teamOwner, source_id: `usr_${me.userId}` })),
    );
    for (const note of teamNotes) expect(note.status, note.text).toBe(201);
    const teamReference = await logIds(teamOwner);
    expect(teamReference).toHaveLength(7);
    expectWalk(await walk(`/log?owner_id=${teamOwner}`, 3), teamReference);
    expect(await readOwnerCount(me.accountId, 'LOG', teamOwner)).toBe(7);
  });
});

function notification(alertId: string | null, accountUserId: string | null, i: number): NotificationRecord {
  const now = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
  return {
    id: newId(),
    account_id: me.accountId,
    account_user_id: accountUserId,
    user_id: null,
    alert_id: alertId,
    broadcast_id: null,
    workflow_id: null,
    group_id: null,
    channel: i % 2 === 0 ? 'email' : 'sms',
    provider: null,
    provider_message_id: null,
    provider_status: null,
    template: 'alert_alert',
    to: 'someone@example.com',
    from: 'service@example.com',
    subject: null,
    message: `message ${i}`,
    status: 'sent',
    err: [],
    cost: 0,
    sent_at: now,
    delivered_at: null,
    source_key: null,
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

describe('notifications by alert and by account user', () => {
  it('count concurrent records exactly under each of their owners and page like their partitions', { tags: ['moto'] }, async () => {
    const [alertA, alertB, person] = [newId(), newId(), newId()];
    const records = [
      ...Array.from({ length: 40 }, (_, i) => notification(alertA, person, i)),
      ...Array.from({ length: 15 }, (_, i) => notification(alertB, person, i)),
      ...Array.from({ length: 9 }, (_, i) => notification(alertA, null, i)),
    ];
    expect((await Promise.all(records.map((record) => insertNotification(record)))).every(Boolean)).toBe(true);
    // A retry of a stored notification is not counted again.
    expect(await insertNotification(records[0])).toBe(false);

    const ofAlert = (await listNotificationsOfAlert(me.accountId, alertA)).map((n) => n.id);
    const ofPerson = (await listNotificationsOfAccountUser(me.accountId, person)).map((n) => n.id);
    expect([ofAlert.length, ofPerson.length]).toEqual([49, 55]);
    // A person is counted under an owner count; an alert's tens are counted from its partition.
    expect(await readOwnerCount(me.accountId, 'NTF', `ACU#${person}`)).toBe(55);
    expect(await readOwnerCount(me.accountId, 'NTF', `ALT#${alertA}`)).toBeNull();
    expect(await countNotificationsOfAlert(me.accountId, alertA)).toBe(49);

    expectWalk(await walk(`/api/v4/notifications?alert_id=${alertA}`, 10), ofAlert);
    expectWalk(await walk(`/api/v4/notifications?alert_id=alt_${alertA}&sort=created_at&direction=asc`, 10), [...ofAlert].reverse());
    expectWalk(await walk(`/api/v4/notifications?account_user_id=${person}`, 12), ofPerson);
    expectWalk(await walk(`/api/v4/notifications?account_user_id=${person}&sort=id&direction=asc`, 20), [...ofPerson].reverse());
    const earlier = (ids: string[]) => ids.map((id) => `ntf_${id}`);
    expectWalk(await walk(`/notification?alert_id=${alertA}`, 10), earlier(ofAlert));
    expectWalk(await walk(`/notification?account_user_id=${person}`, 10, true), earlier(ofPerson));
    expectWalk(await walk(`/notification?source_id=alt_${alertA}`, 25), earlier(ofAlert));
    // A further filter reads one partition within the budget: still exact.
    const both = await admin.get(`/api/v4/notifications?alert_id=${alertA}&account_user_id=${person}&limit=5`);
    expect(both.body.total_count).toBe(40);
    const sms = await admin.get(`/api/v4/notifications?account_user_id=${person}&channel=sms&limit=5`);
    expect(sms.body.total_count).toBe(records.filter((r) => r.account_user_id === person && r.channel === 'sms').length);
  });
});

describe('notifications stored before the keys-only indexes', () => {
  it('are listed and counted beside new ones, by alert and by account user', { tags: ['moto'] }, async () => {
    const [alertId, person] = [newId(), newId()];
    const records = Array.from({ length: 24 }, (_, i) => notification(alertId, person, i));
    expect((await Promise.all(records.map((record) => insertNotification(record)))).every(Boolean)).toBe(true);
    const key = (id: string) => ({ pk: `A#${me.accountId}#NTF`, sk: id });
    // New ones hold keys-only index keys (gsi4 by alert, gsi6 by person) and no whole-item copy.
    const fresh = (await getItem(key(records[1].id)))!;
    expect([fresh.gsi4pk, fresh.gsi6pk, fresh.gsi1pk, fresh.gsi2pk]).toEqual([
      `A#${me.accountId}#NTF#ALT#${alertId}`,
      `A#${me.accountId}#NTF#ACU#${person}`,
      undefined,
      undefined,
    ]);
    // Every other one as stored before: the same keys in gsi1 / gsi2, whose copies are whole items.
    for (const record of records.filter((_, i) => i % 2 === 0)) {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key(record.id),
          UpdateExpression: 'SET gsi1pk = gsi4pk, gsi1sk = gsi4sk, gsi2pk = gsi6pk, gsi2sk = gsi6sk REMOVE gsi4pk, gsi4sk, gsi6pk, gsi6sk',
        }),
      );
    }
    const newestFirst = records
      .map((r) => r.id)
      .sort()
      .reverse();
    expect((await listNotificationsOfAlert(me.accountId, alertId)).map((n) => n.id)).toEqual(newestFirst);
    expect((await listNotificationsOfAccountUser(me.accountId, person, { forward: true, limit: 5 })).map((n) => n.id)).toEqual(
      [...newestFirst].reverse().slice(0, 5),
    );
    expectWalk(await walk(`/api/v4/notifications?alert_id=${alertId}`, 7), newestFirst);
    expectWalk(await walk(`/api/v4/notifications?account_user_id=${person}&sort=id&direction=asc`, 5), [...newestFirst].reverse());
    // Without owner counts (stored before them too): both indexes' partitions are counted.
    await deleteItem({ pk: `A#${me.accountId}#OCOUNT#NTF`, sk: `ACU#${person}` });
    expectWalk(await walk(`/api/v4/notifications?alert_id=${alertId}`, 10), newestFirst);
    expectWalk(await walk(`/api/v4/notifications?account_user_id=${person}`, 10), newestFirst);
    // The recount writes them back (from the notifications themselves), for the tests after this one.
    expect(await recountCounter(me.accountId, 'NTF#OWNER', { settleMs: 50 })).toMatchObject({ status: 'repaired' });
    expect(await readOwnerCount(me.accountId, 'NTF', `ACU#${person}`)).toBe(24);
  });

  it("an alert's owner count written before is read by nothing, and the recount empties it", { tags: ['moto'] }, async () => {
    const alertId = newId();
    const records = Array.from({ length: 3 }, (_, i) => notification(alertId, null, i));
    expect((await Promise.all(records.map((record) => insertNotification(record)))).every(Boolean)).toBe(true);
    // As counted before: an owner count per alert, here off by a crash.
    await putItem({ pk: `A#${me.accountId}#OCOUNT#NTF`, sk: `ALT#${alertId}`, n: 7 });
    expect((await admin.get(`/api/v4/notifications?alert_id=${alertId}&limit=2`)).body.total_count).toBe(3);
    expect((await admin.get(`/notification?source_id=alt_${alertId}&limit=2`)).body.total_count).toBe(3);
    expect(await recountCounter(me.accountId, 'NTF#OWNER', { settleMs: 50 })).toMatchObject({
      status: 'repaired',
      corrections: { [`ALT#${alertId}`]: { was: 7, now: 0 } },
    });
    expect(await readOwnerCount(me.accountId, 'NTF', `ALT#${alertId}`)).toBe(0);
  });
});

describe('imports', () => {
  it('count what they write as the write paths do (the recount finds every counter exact)', { tags: ['moto'] }, async () => {
    const owner = `int_${newId()}`;
    const at = Date.now();
    const note = (i: number, ownerId: string, type: string): LogRecord => ({
      id: newId(),
      account_id: me.accountId,
      type,
      subtype: null,
      content: `imported ${i}`,
      owner_id: ownerId,
      source_id: ownerId,
      level: 1,
      meta: {},
      data: {},
      created_at: new Date(at + i).toISOString(),
      updated_at: new Date(at + i).toISOString(),
      version: 1,
    });
    const alertOwner = `alt_${newId()}`;
    await importLogs(me.accountId, [
      ...Array.from({ length: 12 }, (_, i) => note(i, owner, 'integration')),
      ...Array.from({ length: 3 }, (_, i) => note(i, alertOwner, 'alert')),
    ]);
    const alertId = newId();
    await importNotifications(
      me.accountId,
      Array.from({ length: 6 }, (_, i) => notification(alertId, null, i)),
    );
    expect((await admin.get(`/log?owner_id=${owner}&limit=5`)).body.total_count).toBe(12);
    expect((await admin.get(`/log?owner_id=${alertOwner}&limit=5`)).body.total_count).toBe(3);
    expect((await admin.get(`/api/v4/notifications?alert_id=${alertId}&limit=5`)).body.total_count).toBe(6);
    for (const set of ['LOG#OWNER', 'NTF#OWNER', 'LOG', 'ALERT', 'NTF'] as const) {
      expect(await recountCounter(me.accountId, set, { settleMs: 100 }), set).toMatchObject({ status: 'exact' });
    }
  });
});

describe('recounting owner counts', () => {
  it('finds them exact, and repairs one a crash left off so the list total is right again', { tags: ['moto'] }, async () => {
    for (const set of ['LOG#OWNER', 'NTF#OWNER'] as const) {
      expect(await recountCounter(me.accountId, set, { settleMs: 100 }), set).toMatchObject({ status: 'exact' });
    }
    const integration = await createIntegration(admin, { urgency: 'low' });
    await admin.post('/log', { content: 'one', owner_id: integration.prefix_id, source_id: `usr_${me.userId}` });
    // As if the ADD of a second log had landed and its put had not, and another owner had been counted from nothing.
    await adjustOwnerCounts(me.accountId, 'LOG', { [integration.prefix_id]: 1, int_01ARZ3NDEKTSV4RRFFQ69G5FAV: 2 });
    expect((await admin.get(`/log?owner_id=${integration.prefix_id}`)).body.total_count).toBe(2);
    const repaired = await recountCounter(me.accountId, 'LOG#OWNER', { settleMs: 100 });
    expect(repaired.status).toBe('repaired');
    expect(repaired.corrections).toEqual({
      [integration.prefix_id]: { was: 2, now: 1 },
      int_01ARZ3NDEKTSV4RRFFQ69G5FAV: { was: 2, now: 0 },
    });
    expect((await admin.get(`/log?owner_id=${integration.prefix_id}`)).body.total_count).toBe(1);
    expect(await recountCounter(me.accountId, 'LOG#OWNER', { settleMs: 100 })).toMatchObject({ status: 'exact' });
  });
});

describe('owner filters that name no object', () => {
  it('answer an empty page at once, however long the value (never a key too long for the table)', async () => {
    for (const length of [1_100, 3_000]) {
      for (const path of [
        `/log?owner_id=int_${'x'.repeat(length)}`,
        `/log?owner_id=${'x'.repeat(length)}&q=note`,
        `/api/v4/notifications?alert_id=${'x'.repeat(length)}`,
        `/api/v4/notifications?account_user_id=${'x'.repeat(length)}&limit=5`,
        `/notification?source_id=alt_${'x'.repeat(length)}`,
      ]) {
        const res = await admin.get(path);
        expect(res.status, `${path.slice(0, 60)}: ${res.text.slice(0, 200)}`).toBe(200);
        expect(res.body).toMatchObject({ data: [], has_more: false, total_count: 0 });
      }
    }
  });
});
