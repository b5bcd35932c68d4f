import { describe, expect, it } from 'vitest';
import { signupAccount, useService, type TestService } from '../support/runtime';
import type { ApiClient } from '../support/api-client';
import { createTeam, errorMessages, people, type Person } from '../teams/helpers';

let service: TestService;
let admin: ApiClient;
let alice: Person;

useService(async (started) => {
  service = started;
  admin = service.admin;
  [alice] = await people(admin, 1);
});

describe('escalation policies', () => {
  it('creates with layers, repeat and reassign targets; ids may be prefix ids', async () => {
    const team = await createTeam(admin, { name: 'Reassign', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    const res = await admin.post('/api/v4/escalation_policies', {
      name: 'Night',
      repeat: 2,
      reassign_team_ids: [team.prefix_id],
      reassign_account_user_ids: [`acu_${alice.id}`],
      escalation_layers: [
        { layer: 2, timeout: 1, timeout_unit: 'hours' },
        { layer: 1, timeout: 10, timeout_unit: 'minutes' },
      ],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Night',
      repeat: 2,
      reassign_team_ids: [team.id],
      reassign_account_user_ids: [alice.id],
      escalation_layers: [
        { layer: 1, timeout: 10, timeout_unit: 'minutes' },
        { layer: 2, timeout: 1, timeout_unit: 'hours' },
      ],
    });
    expect(res.body.prefix_id).toBe(`esc_${res.body.id}`);
    expect((await admin.get(`/api/v4/escalation_policies/${res.body.prefix_id}`)).body.id).toBe(res.body.id);
  });

  it('accepts escalation_layers_attributes and defaults to one 5-minute layer', async () => {
    const nested = await admin.post('/api/v4/escalation_policies', {
      name: 'Nested',
      escalation_layers_attributes: [{ timeout: 3 }, { timeout: 7, timeout_unit: 'hours' }, { timeout: 9, _destroy: true }],
    });
    expect(nested.status, nested.text).toBe(201);
    expect(nested.body.escalation_layers).toMatchObject([
      { layer: 1, timeout: 3, timeout_unit: 'minutes' },
      { layer: 2, timeout: 7, timeout_unit: 'hours' },
    ]);
    const plain = await admin.post('/api/v4/escalation_policies', { name: 'Plain' });
    expect(plain.body).toMatchObject({
      repeat: 0,
      reassign_team_ids: [],
      escalation_layers: [{ layer: 1, timeout: 5, timeout_unit: 'minutes' }],
    });
  });

  it.each([
    [{}, "name can't be blank"],
    [{ name: 'x', repeat: 4 }, 'repeat must be at most 3'],
    [{ name: 'x', repeat: -1 }, 'repeat must be at least 0'],
    [
      { name: 'x', escalation_layers: [{ timeout: 5, timeout_unit: 'days' }] },
      'escalation_layers[0].timeout_unit must be one of: minutes, hours',
    ],
    [{ name: 'x', escalation_layers: [{ timeout_unit: 'hours' }] }, "escalation_layers[0].timeout can't be blank"],
    [{ name: 'x', escalation_layers: [{ timeout: 0 }] }, 'escalation_layers[0].timeout must be at least 1'],
    [{ name: 'x', escalation_layers: [] }, 'escalation_layers must have at least 1 entry'],
    [
      {
        name: 'x',
        escalation_layers: [
          { layer: 1, timeout: 1 },
          { layer: 1, timeout: 2 },
        ],
      },
      'escalation_layers lists layer 1 twice',
    ],
    [
      { name: 'x', escalation_layers_attributes: [{ timeout: 1, timeout_unit: 'weeks' }] },
      'escalation_layers_attributes[0].timeout_unit must be one of: minutes, hours',
    ],
  ])('refuses %j with 422: %s', async (body, message) => {
    const res = await admin.post('/api/v4/escalation_policies', body);
    expect(res.status).toBe(422);
    expect(errorMessages(res)).toContain(message);
  });

  it('refuses reassign targets that are not in the account, naming the field', async () => {
    const other = await signupAccount(service, 'Esc');
    const stranger = (await other.client.get('/api/v4/account_users')).body.data[0];
    const res = await admin.post('/api/v4/escalation_policies', { name: 'x', reassign_account_user_ids: [stranger.id] });
    expect(res.status).toBe(422);
    expect(errorMessages(res).join()).toContain('reassign_account_user_ids');
    const teams = await admin.post('/api/v4/escalation_policies', { name: 'x', reassign_team_ids: ['tem_01ARZ3NDEKTSV4RRFFQ69G5FAV'] });
    expect(teams.status).toBe(422);
    expect(errorMessages(teams).join()).toContain('reassign_team_ids');
  });

  it('updates partially, replacing the layers when they are sent', async () => {
    const created = (await admin.post('/api/v4/escalation_policies', { name: 'Edit me', repeat: 1 })).body;
    const res = await admin.put(`/api/v4/escalation_policies/${created.id}`, {
      escalation_layers: [
        { layer: 1, timeout: 2 },
        { layer: 2, timeout: 4 },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: 'Edit me', repeat: 1 });
    expect(res.body.escalation_layers.map((l: any) => [l.layer, l.timeout])).toEqual([
      [1, 2],
      [2, 4],
    ]);
    // The first layer keeps its id: it is the same layer, edited.
    expect(res.body.escalation_layers[0].id).toBe(created.escalation_layers[0].id);
    expect((await admin.put(`/api/v4/escalation_policies/${created.id}`, { repeat: 9 })).status).toBe(422);
  });

  it('lists, and deletes with 204', async () => {
    const created = (await admin.post('/api/v4/escalation_policies', { name: 'Listed policy' })).body;
    const list = await admin.get('/api/v4/escalation_policies?q=listed');
    expect(list.body.data.map((p: any) => p.id)).toEqual([created.id]);
    expect((await admin.delete(`/api/v4/escalation_policies/${created.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v4/escalation_policies/${created.id}`)).status).toBe(404);
  });

  it('is for account admins only; other accounts see nothing', async () => {
    const created = (await admin.post('/api/v4/escalation_policies', { name: 'Guarded' })).body;
    expect((await alice.client.post('/api/v4/escalation_policies', { name: 'Mine' })).status).toBe(403);
    expect((await alice.client.put(`/api/v4/escalation_policies/${created.id}`, { name: 'x' })).status).toBe(403);
    expect((await alice.client.delete(`/api/v4/escalation_policies/${created.id}`)).status).toBe(403);
    expect((await alice.client.get(`/api/v4/escalation_policies/${created.id}`)).status).toBe(200);
    // A team admin does not administer the team's policy.
    const team = await createTeam(admin, { name: 'Not policy', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    expect((await alice.client.put(`/api/v4/escalation_policies/${team.escalation_policy_id}`, { repeat: 3 })).status).toBe(403);
    const other = await signupAccount(service, 'EscIso');
    expect((await other.client.get(`/api/v4/escalation_policies/${created.id}`)).status).toBe(404);
    expect((await other.client.put(`/api/v4/escalation_policies/${created.id}`, { name: 'x' })).status).toBe(404);
  });
});
