// /log (earlier interface): create, retrieve, list; an alert's timeline read through owner_id.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { whoAmI, type Me } from '../alerts/support';

let service: TestService;
let admin: ApiClient;
let me: Me;
let alert: { id: string; prefix_id: string };

useService(async (started) => {
  service = started;
  admin = service.admin;
  me = await whoAmI(admin);
  const res = await admin.post('/api/v4/alerts', { title: 'Logged', urgency: 'low', destination_account_user_ids: [me.accountUserId] });
  alert = res.body;
});

describe('creating a log', () => {
  it('stores a log owned by an object of the account', async () => {
    const res = await admin.post('/log', { content: 'called the vendor', owner_id: alert.prefix_id, source_id: `usr_${me.userId}` });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      sid: `acc_${me.accountId}`,
      content: 'called the vendor',
      owner_id: alert.prefix_id,
      source_id: `usr_${me.userId}`,
      type: 'note',
      subtype: null,
      level: 1,
    });
    expect(res.body.id).toMatch(/^log_[0-9A-Z]{26}$/);
    const read = await admin.get(`/log/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    expect((await admin.get(`/log/${res.body.id.slice(4)}`)).status).toBe(200);
  });

  it('needs content, owner_id and source_id (400 naming each)', async () => {
    const res = await admin.post('/log', {});
    expect(res.status).toBe(400);
    const messages = res.body.errors.map((e: { message: string }) => e.message);
    expect(messages).toEqual(["content can't be blank", "owner_id can't be blank", "source_id can't be blank"]);
  });

  it('400s references to objects that are absent or malformed', async () => {
    const res = await admin.post('/log', { content: 'x', owner_id: 'alt_01ARZ3NDEKTSV4RRFFQ69G5FAV', source_id: 'whoever' });
    expect(res.status).toBe(400);
    const text = res.body.errors.map((e: { message: string }) => e.message).join('\n');
    expect(text).toMatch(/owner_id names an unknown alert/);
    expect(text).toMatch(/source_id must be a prefix id/);
    const subtype = await admin.post('/log', {
      content: 'x',
      owner_id: alert.prefix_id,
      source_id: `usr_${me.userId}`,
      subtype: 'SIDEWAYS',
    });
    expect(subtype.status).toBe(400);
  });

  it('404s absent logs', async () => {
    expect((await admin.get('/log/log_01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    expect((await admin.get('/log/nope')).status).toBe(404);
  });
});

describe('listing logs', () => {
  it("lists an alert's timeline oldest first through owner_id, with exact counts", async () => {
    await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
    const res = await admin.get(`/log?owner_id=${alert.prefix_id}&type=alert&limit=100`);
    expect(res.status).toBe(200);
    const actions = res.body.data.map((l: { data: { action: string } }) => l.data.action).filter((a: string) => a !== 'routed');
    expect(actions).toEqual(['created', 'acknowledged', 'resolved']);
    const all = await admin.get(`/log?owner_id=${alert.prefix_id}&limit=1`);
    expect(all.body.has_more).toBe(true);
    const ids = (await admin.get(`/log?owner_id=${alert.prefix_id}&limit=100`)).body.data.map((l: { id: string }) => l.id);
    expect(all.body.total_count).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('lists every log newest first, filters and rejects unknown attributes', async () => {
    const res = await admin.get('/log?limit=100');
    expect(res.status).toBe(200);
    const ids = res.body.data.map((l: { id: string }) => l.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    expect(res.body.has_more).toBe(false);
    expect(res.body.total_count).toBe(ids.length);
    const notes = await admin.get('/log?type=note');
    expect(notes.body.data.every((l: { type: string }) => l.type === 'note')).toBe(true);
    const search = await admin.get('/log?q=VENDOR');
    expect(search.body.total_count).toBe(1);
    expect((await admin.get('/log?nope=1')).status).toBe(400);
  });

  it("never shows another account's logs", async () => {
    const { client } = await signupAccount(service, 'Logs');
    const list = await client.get('/log?limit=100');
    expect(list.body.data.some((l: { owner_id: string }) => l.owner_id === alert.prefix_id)).toBe(false);
    expect((await client.get(`/log?owner_id=${alert.prefix_id}`)).body.total_count).toBe(0);
    const other = await client.post('/log', { content: 'x', owner_id: alert.prefix_id, source_id: alert.prefix_id });
    expect(other.status).toBe(400);
  });
});
