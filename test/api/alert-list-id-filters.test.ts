// Reference filters of the alert lists take an id in either form (docs/api.md#ids): v4 shows bare
// ULIDs, the earlier interface prefix ids, and a client may send the other form — it must match
// the same alerts, not none.
// @moto: filters through BatchGet and index queries.
// @module-tag moto
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { useService, type TestService } from '../support/runtime';
import { eventually, seedTeam, whoAmI, type Me } from '../alerts/support';

let service: TestService;
let admin: ApiClient;
let me: Me;
let teamA: string;
let teamB: string;

useService(async (started) => {
  service = started;
  admin = service.admin;
  me = await whoAmI(admin);
  teamA = await seedTeam(me.accountId, [me.accountUserId]);
  teamB = await seedTeam(me.accountId, [me.accountUserId]);
});

const titles = (res: { body: { data: Array<{ title: string }> } }) => res.body.data.map((a) => a.title).sort();

beforeAll(async () => {
  for (const [title, team] of [
    ['to A', teamA],
    ['to B', teamB],
    ['to A again', teamA],
  ] as const) {
    const res = await admin.post('/api/v4/alerts', { title, urgency: 'high', destination_team_ids: [team] });
    expect(res.status, res.text).toBe(201);
  }
  const none = await admin.post('/api/v4/alerts', { title: 'to me', urgency: 'low', destination_account_user_ids: [me.accountUserId] });
  expect(none.status, none.text).toBe(201);
  // Routing assigns each team alert to its team (the earlier d_team_id).
  await eventually(
    () => admin.get(`/alert?d_team_id=tem_${teamA}`),
    (r) => r.body.total_count === 2,
  );
});

describe('alert list reference filters in either id form', () => {
  it('v4 destination_team_ids matches the same alerts as a prefix id as it does as a ULID', async () => {
    const bare = await admin.get(`/api/v4/alerts?destination_team_ids=${teamA}`);
    const prefixed = await admin.get(`/api/v4/alerts?destination_team_ids=tem_${teamA}`);
    expect(bare.status, bare.text).toBe(200);
    expect(titles(bare)).toEqual(['to A', 'to A again']);
    expect(prefixed.status, prefixed.text).toBe(200);
    expect(titles(prefixed)).toEqual(['to A', 'to A again']);
    expect(prefixed.body.total_count).toBe(2);
    const toB = (await admin.get(`/api/v4/alerts?destination_team_ids=${teamB}`)).body.data[0];
    const withStatus = await admin.get(`/api/v4/alerts?destination_team_ids=tem_${teamB}&status=${toB.status}`);
    expect(titles(withStatus)).toEqual(['to B']);
    // A prefix id of another kind names no team: nothing matches (not an error, not everything).
    const wrongKind = await admin.get(`/api/v4/alerts?destination_team_ids=acu_${teamA}`);
    expect(wrongKind.status).toBe(200);
    expect(wrongKind.body.total_count).toBe(0);
  });

  it('v4 destination_account_user_ids and a team view take the prefix form too', async () => {
    const bare = await admin.get(`/api/v4/alerts?destination_account_user_ids=${me.accountUserId}`);
    const prefixed = await admin.get(`/api/v4/alerts?destination_account_user_ids=acu_${me.accountUserId}`);
    expect(titles(bare)).toContain('to me');
    expect(titles(prefixed)).toEqual(titles(bare));
    const view = await admin.get(`/api/v4/teams/tem_${teamA}/alerts?destination_team_ids=tem_${teamA}`);
    expect(view.status, view.text).toBe(200);
    expect(titles(view)).toEqual(['to A', 'to A again']);
  });

  it('earlier d_team_id matches the same alerts as a bare ULID as it does as a prefix id', async () => {
    const prefixed = await admin.get(`/alert?d_team_id=tem_${teamA}`);
    const bare = await admin.get(`/alert?d_team_id=${teamA}`);
    expect(prefixed.status, prefixed.text).toBe(200);
    expect(titles(prefixed)).toEqual(['to A', 'to A again']);
    expect(bare.status, bare.text).toBe(200);
    expect(titles(bare)).toEqual(titles(prefixed));
    expect(bare.body.total_count).toBe(2);
  });
});
