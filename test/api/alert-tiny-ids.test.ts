// A path's :id also takes an alert's tiny id, the number people see (issue 9): every alert route of
// both interfaces, scoped to the caller's account like any other id.
import { describe, expect, it } from 'vitest';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { adminAccountUser } from '../integrations/support';
import { whoAmI } from '../alerts/support';
import { settle } from '../support/quiescence';
import { alertKey, TINY_INDEX_WAITS_MS } from '../../lib/alerts/store';
import { db, tableName } from '../../lib/store/client';
import { UpdateCommand } from '../../lib/store/commands';
import { getItem, putItem, queryItems } from '../../lib/store/items';
import { recentTinyIdHolder, reserveTinyIds } from '../../lib/store/counters';
import { newId } from '../../lib/ids';

let service: TestService;
let destination: string;

useService(async (started) => {
  service = started;
  destination = (await adminAccountUser(service.admin)).id;
});

async function newAlert(title: string) {
  const res = await service.admin.post('/api/v4/alerts', { title, urgency: 'high', destination_account_user_ids: [destination] });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; tiny_id: number };
}

describe('tiny ids in paths', () => {
  it('every alert route of both interfaces takes the tiny id', async () => {
    const alert = await newAlert('Tiny');
    const tiny = alert.tiny_id;
    expect((await service.admin.get(`/api/v4/alerts/${tiny}`)).body.id).toBe(alert.id);
    expect((await service.admin.get(`/alert/${tiny}`)).body.id).toBe(`alt_${alert.id}`);
    const renamed = await service.admin.put(`/api/v4/alerts/${tiny}`, { title: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect((await service.admin.put(`/alert/${tiny}`, { title: 'Renamed again' })).body.title).toBe('Renamed again');
    expect((await service.admin.post(`/api/v4/alerts/${tiny}/comments`, { text: 'seen' })).status).toBe(201);
    expect((await service.admin.get(`/api/v4/alerts/${tiny}/comments`)).body.total_count).toBe(1);
    const acknowledged = await service.admin.post(`/alert/${tiny}/acknowledge`);
    expect(acknowledged.status, acknowledged.text).toBe(200);
    expect(acknowledged.body.status).toBe('acknowledged');
    expect((await service.admin.post(`/api/v4/alerts/${tiny}/resolve`)).body.status).toBe('resolved');
    expect((await service.admin.post(`/alert/${tiny}/archive`)).body.status).toBe('archived');
    expect((await service.admin.delete(`/alert/${tiny}`)).status).toBe(204);
    expect((await service.admin.get(`/api/v4/alerts/${tiny}`)).status).toBe(404);
  });

  it('the views and handoff take it too; numbers that are not tiny ids are absent', async () => {
    const incident = await service.admin.post('/incident', { title: 'Fire', destination_ids: [`acu_${destination}`] });
    expect(incident.status, incident.text).toBe(201);
    const tiny = incident.body.tinyId ?? incident.body.tiny_id;
    expect((await service.admin.get(`/incident/${tiny}`)).body.id).toBe(incident.body.id);
    expect((await service.admin.get(`/incident/${tiny}/logs`)).status).toBe(200);
    const handed = await service.admin.post(`/alert/${tiny}/handoff`, { to: `usr_${(await adminAccountUser(service.admin)).user_id}` });
    expect(handed.status, handed.text).toBe(200);
    for (const id of ['0', '-1', '01', '1.0', '99999', '1e3', '9'.repeat(20)]) {
      expect((await service.admin.get(`/api/v4/alerts/${id}`)).status, id).toBe(404);
      expect((await service.admin.post(`/alert/${id}/acknowledge`)).status, id).toBe(404);
    }
  });

  it("another account's tiny id names its own alert, never this one", async () => {
    const mine = await newAlert('Mine');
    const other = await signupAccount(service, 'TinyIso');
    // The other account has no alerts yet: the same number is simply absent there.
    expect((await other.client.get(`/api/v4/alerts/${mine.tiny_id}`)).status).toBe(404);
    expect((await other.client.post(`/alert/${mine.tiny_id}/acknowledge`)).status).toBe(404);
    expect((await service.admin.get(`/api/v4/alerts/${mine.tiny_id}`)).body.status).toBe('open');
  });
});

describe('tiny ids are found in gsi5, without a link item (issue 21)', () => {
  /** The partition of the `tiny` link alerts stored before hold (lib/alerts/keys.ts, link kind `tiny`). */
  const tinyLinkPartition = (accountId: string, tiny: number) => `A#${accountId}#ALERT#L#tiny#${tiny}`;

  /** A new alert, routed and paged: nothing writes its item any more while the test moves its index entry. */
  async function restingAlert(title: string) {
    const alert = await newAlert(title);
    await settle(service);
    return alert;
  }

  /** The alert's gsi5 entry taken away (REMOVE) or put back (SET), as an index that lags would show it. */
  async function tinyIndexEntry(accountId: string, alertId: string, tiny: number | null): Promise<void> {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: alertKey(accountId, alertId),
        ...(tiny === null
          ? { UpdateExpression: 'REMOVE gsi5pk, gsi5sk' }
          : {
              UpdateExpression: 'SET gsi5pk = :pk, gsi5sk = :sk',
              ExpressionAttributeValues: { ':pk': `A#${accountId}#ALERT#BYTINY`, ':sk': String(tiny).padStart(12, '0') },
            }),
      }),
    );
  }

  it('a create writes no tiny link, and the path still finds the alert by its number', async () => {
    const { accountId } = await whoAmI(service.admin);
    const alert = await newAlert('No link');
    expect(await queryItems(tinyLinkPartition(accountId, alert.tiny_id))).toEqual([]);
    expect((await service.admin.get(`/api/v4/alerts/${alert.tiny_id}`)).body.id).toBe(alert.id);
  });

  it('an alert stored before, with a tiny link and not in gsi5, is found by it; its link goes with it', async () => {
    const { accountId } = await whoAmI(service.admin);
    const alert = await restingAlert('Stored before');
    // Its number's reservation out of the tiny-id item's last 8: only the link can name it at once.
    for (let i = 0; i < 8; i++) await newAlert(`After ${i}`);
    await settle(service);
    await tinyIndexEntry(accountId, alert.id, null);
    const link = { pk: tinyLinkPartition(accountId, alert.tiny_id), sk: alert.id };
    await putItem(link);
    expect((await service.admin.get(`/alert/${alert.tiny_id}`)).body.id).toBe(`alt_${alert.id}`);
    expect((await service.admin.delete(`/api/v4/alerts/${alert.id}`)).status).toBe(204);
    expect(await getItem(link)).toBeNull();
  });

  it('an alert gsi5 does not hold yet is found by the reservation that named it', async () => {
    const { accountId } = await whoAmI(service.admin);
    const alert = await restingAlert('Index lags, just made');
    await tinyIndexEntry(accountId, alert.id, null);
    const found = await service.admin.post(`/api/v4/alerts/${alert.tiny_id}/acknowledge`);
    expect(found.status, found.text).toBe(200);
    expect(found.body.id).toBe(alert.id);
  });

  it('past the last 8 reservations, a number handed out that gsi5 does not hold yet is looked for again', async () => {
    const { accountId } = await whoAmI(service.admin);
    const alert = await restingAlert('Index lags');
    const gone = await restingAlert('Never indexed');
    for (let i = 0; i < 8; i++) await newAlert(`Later ${i}`);
    await settle(service);
    await tinyIndexEntry(accountId, alert.id, null);
    await tinyIndexEntry(accountId, gone.id, null);
    // The entry comes back after the first wait, as a lagging index's would: the lookup finds it.
    const back = new Promise<void>((resolve, reject) => {
      setTimeout(() => void tinyIndexEntry(accountId, alert.id, alert.tiny_id).then(resolve, reject), TINY_INDEX_WAITS_MS[0] + 20);
    });
    const found = await service.admin.post(`/api/v4/alerts/${alert.tiny_id}/acknowledge`);
    await back;
    expect(found.status, found.text).toBe(200);
    expect(found.body.id).toBe(alert.id);
    // Never back (an alert deleted, a create that failed after its number): absent once the waits are over.
    expect((await service.admin.get(`/api/v4/alerts/${gone.tiny_id}`)).status).toBe(404);
  });

  it('two calls reserving for one object (a create retried, a message delivered twice) get numbers of their own, each naming it', async () => {
    const accountId = newId();
    const objectId = newId();
    const first = await reserveTinyIds(accountId, 'ALERT', 1, objectId);
    const second = await reserveTinyIds(accountId, 'ALERT', 1, objectId);
    expect([first, second]).toEqual([1, 2]);
    expect(await recentTinyIdHolder(accountId, 'ALERT', 1)).toEqual({ last: 2, holder: objectId });
    expect(await recentTinyIdHolder(accountId, 'ALERT', 2)).toEqual({ last: 2, holder: objectId });
    expect(await recentTinyIdHolder(accountId, 'ALERT', 3)).toEqual({ last: 2, holder: null });
  });
});
