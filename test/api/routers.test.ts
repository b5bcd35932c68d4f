// Routers through the real local server, both interfaces (api-v4.md "Router", api-earlier.md
// "Router", docs/api.md#routers): validation with line and column, receivers checked for form, default
// receivers that must exist, the YAML stored exactly as sent, roles, accounts, the default templates
// and the dry run.
import { describe, expect, it } from 'vitest';
import { signupAccount, useService, type TestService } from '../support/runtime';
import type { ApiClient } from '../support/api-client';
import { createTeam, people, type Person } from '../teams/helpers';

let service: TestService;
let admin: ApiClient;
let alice: Person;
let team: { id: string; prefix_id: string };

useService(async (started) => {
  service = started;
  admin = service.admin;
  [alice] = await people(admin, 1);
  team = await createTeam(admin, { name: 'Ops', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
});

const RULES = `---
# comments and layout are kept
rules:
  - match:
      alert.urgency: critical
    actions:
      - type: assign
        receiver: tem_01ARZ3NDEKTSV4RRFFQ69G5FAV
        delay: 5m
      - type: setval
        map:
          title: "[P1] {{alert.title}}"
  - match:
      always: true
    actions:
      - type: ignore
`;

const messages = (body: { errors: { message: string }[] }) => body.errors.map((e) => e.message);

describe('v4 routers', () => {
  it('creates with the YAML stored exactly as sent, a tiny id and default receivers in either id form', async () => {
    const res = await admin.post('/api/v4/routers', { name: 'Main', rules: RULES, default_receiver_team_id: team.prefix_id });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Main',
      enabled: true,
      rules: RULES,
      default_receiver_team_id: team.id,
      default_receiver_account_user_id: null,
      default_receiver_router_id: null,
    });
    expect(res.body.prefix_id).toBe(`rtr_${res.body.id}`);
    expect(res.body.tiny_id).toBeGreaterThanOrEqual(1);
    const read = await admin.get(`/api/v4/routers/${res.body.prefix_id}`);
    expect(read.body.rules).toBe(RULES);
    const second = await admin.post('/api/v4/routers', { name: 'Second', default_receiver_account_user_id: `acu_${alice.id}` });
    expect(second.status, second.text).toBe(201);
    expect(second.body.tiny_id).toBe(res.body.tiny_id + 1);
    expect(second.body.rules).toBeNull();
  });

  it('needs a name and at least one default receiver, which must exist in the account', async () => {
    const none = await admin.post('/api/v4/routers', { name: 'x', rules: RULES });
    expect(none.status).toBe(422);
    expect(none.body.code).toBe(422);
    expect(messages(none.body).join(' ')).toMatch(/default receiver/);
    const unknown = await admin.post('/api/v4/routers', { name: 'x', default_receiver_team_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    expect(unknown.status).toBe(422);
    expect(messages(unknown.body).join(' ')).toMatch(/default_receiver_team_id/);
    const nameless = await admin.post('/api/v4/routers', { default_receiver_team_id: team.id });
    expect(nameless.status).toBe(422);
    expect(messages(nameless.body)).toContain("name can't be blank");
  });

  it('refuses bad YAML naming line and column, unknown actions and operators, bad receivers; nothing changes', async () => {
    const before = (await admin.get('/api/v4/routers')).body.total_count;
    const broken = await admin.post('/api/v4/routers', {
      name: 'x',
      default_receiver_team_id: team.id,
      rules: 'rules:\n  - match: {alert.urgency: high\n    actions: []\n',
    });
    expect(broken.status).toBe(422);
    expect(messages(broken.body).join(' ')).toMatch(/line \d+, column \d+/);
    const cases: [string, RegExp][] = [
      ['rules:\n  - actions:\n      - type: ignore\n', /rules\[0\] has no match/],
      ['rules:\n  - match: {always: true}\n', /rules\[0\] has no actions/],
      ['rules:\n  - match: {always: true}\n    actions:\n      - type: explode\n', /not a known action: explode.*line 4, column/],
      ['rules:\n  - match: {alert.urgency: {$near: 1}}\n    actions:\n      - type: ignore\n', /\$near/],
      ['rules:\n  - match: {always: true}\n    actions:\n      - type: assign\n        receiver: abc_123\n', /known prefix/],
    ];
    for (const [rules, pattern] of cases) {
      const res = await admin.post('/api/v4/routers', { name: 'x', default_receiver_team_id: team.id, rules });
      expect(res.status, rules).toBe(422);
      expect(messages(res.body).join(' '), rules).toMatch(pattern);
    }
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const bombed = await admin.post('/api/v4/routers', {
      name: 'bomb',
      default_receiver_team_id: team.id,
      rules: `${bomb.join('\n')}\nrules: []\n`,
    });
    expect(bombed.status).toBe(422);
    expect(messages(bombed.body).join(' ')).toMatch(/alias/i);
    expect((await admin.get('/api/v4/routers')).body.total_count).toBe(before);
  });

  it('a receiver that does not exist is accepted when saved (its form is what counts)', async () => {
    const res = await admin.post('/api/v4/routers', { name: 'Form only', default_receiver_team_id: team.id, rules: RULES });
    expect(res.status).toBe(201);
  });

  it('updates partially; rules are validated and a faulty update changes nothing', async () => {
    const created = (await admin.post('/api/v4/routers', { name: 'Edit me', default_receiver_team_id: team.id, rules: RULES })).body;
    const renamed = await admin.put(`/api/v4/routers/${created.id}`, { name: 'Edited', enabled: false });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Edited', enabled: false, rules: RULES, default_receiver_team_id: team.id });
    const bad = await admin.put(`/api/v4/routers/${created.id}`, { rules: 'rules: [' });
    expect(bad.status).toBe(422);
    expect((await admin.get(`/api/v4/routers/${created.id}`)).body.rules).toBe(RULES);
    const cleared = await admin.put(`/api/v4/routers/${created.id}`, { default_receiver_team_id: null });
    expect(cleared.status).toBe(422);
    const self = await admin.put(`/api/v4/routers/${created.id}`, { default_receiver_router_id: created.id });
    expect(self.status).toBe(422);
    const moved = await admin.put(`/api/v4/routers/${created.id}`, {
      default_receiver_team_id: null,
      default_receiver_account_user_id: alice.id,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ default_receiver_team_id: null, default_receiver_account_user_id: alice.id });
  });

  it('accepts form-encoded bodies', async () => {
    const body = new URLSearchParams({ name: 'Form', default_receiver_team_id: team.id, rules: RULES }).toString();
    const res = await admin.post('/api/v4/routers', body, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.rules).toBe(RULES);
  });

  it('only admins write; others read; another account sees nothing', async () => {
    const created = (await admin.post('/api/v4/routers', { name: 'Guarded', default_receiver_team_id: team.id })).body;
    expect((await alice.client.post('/api/v4/routers', { name: 'x', default_receiver_team_id: team.id })).status).toBe(403);
    expect((await alice.client.put(`/api/v4/routers/${created.id}`, { name: 'x' })).status).toBe(403);
    expect((await alice.client.delete(`/api/v4/routers/${created.id}`)).status).toBe(403);
    expect((await alice.client.get(`/api/v4/routers/${created.id}`)).status).toBe(200);
    const other = await signupAccount(service);
    expect((await other.client.get(`/api/v4/routers/${created.id}`)).status).toBe(404);
    expect((await other.client.get(`/router/rtr_${created.id}`)).status).toBe(404);
    expect((await other.client.put(`/api/v4/routers/${created.id}`, { name: 'x' })).status).toBe(404);
    expect((await other.client.delete(`/api/v4/routers/${created.id}`)).status).toBe(404);
    expect((await other.client.post(`/api/v4/routers/${created.id}/test`, { alert: {} })).status).toBe(404);
    expect((await other.client.post('/api/v4/routers', { name: 'x', default_receiver_team_id: team.id })).status).toBe(422);
    expect((await other.client.get('/api/v4/routers')).body.total_count).toBe(0);
  });

  it('lists with filters and deletes', async () => {
    const created = (await admin.post('/api/v4/routers', { name: 'Listed zebra', default_receiver_team_id: team.id })).body;
    const found = await admin.get('/api/v4/routers?q=zebra');
    expect(found.body.data.map((r: { id: string }) => r.id)).toEqual([created.id]);
    const byTeam = await admin.get(`/api/v4/routers?default_receiver_team_id=${team.prefix_id}&limit=100`);
    expect(byTeam.body.data.every((r: { default_receiver_team_id: string }) => r.default_receiver_team_id === team.id)).toBe(true);
    expect((await admin.delete(`/api/v4/routers/${created.prefix_id}`)).status).toBe(204);
    expect((await admin.get(`/api/v4/routers/${created.id}`)).status).toBe(404);
    expect((await admin.delete(`/api/v4/routers/${created.id}`)).status).toBe(404);
  });
});

describe('earlier /router', () => {
  it('takes the YAML as settings or rules and shows it under both; default_receiver is a prefix id', async () => {
    const res = await admin.post('/router', { name: 'Earlier', type: 'router', settings: RULES, default_receiver: `usr_${alice.userId}` });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Earlier',
      type: 'router',
      settings: RULES,
      rules: RULES,
      default_receiver: `usr_${alice.userId}`,
      enabled: true,
    });
    expect(res.body.id).toMatch(/^rtr_/);
    expect(res.body.sid).toMatch(/^acc_/);
    const v4 = await admin.get(`/api/v4/routers/${res.body.id}`);
    expect(v4.body).toMatchObject({ rules: RULES, default_receiver_account_user_id: alice.id });
    const asRules = await admin.post('/router', { name: 'As rules', type: 'router', rules: RULES, default_receiver: team.prefix_id });
    expect(asRules.status).toBe(201);
    expect(asRules.body.settings).toBe(RULES);
    const updated = await admin.put(`/router/${res.body.id}`, { default_receiver: team.prefix_id, name: 'Renamed' });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ default_receiver: team.prefix_id, name: 'Renamed', settings: RULES });
  });

  it('answers 400 naming the fault on the earlier interface', async () => {
    const noReceiver = await admin.post('/router', { name: 'x', type: 'router', settings: RULES });
    expect(noReceiver.status).toBe(400);
    expect(noReceiver.body.code).toBeUndefined();
    expect(messages(noReceiver.body).join(' ')).toMatch(/default_receiver/);
    const badType = await admin.post('/router', { name: 'x', type: 'weird', settings: RULES, default_receiver: team.prefix_id });
    expect(badType.status).toBe(400);
    expect(messages(badType.body).join(' ')).toMatch(/type/);
    const badYaml = await admin.post('/router', {
      name: 'x',
      type: 'router',
      settings: 'rules:\n  - match: [',
      default_receiver: team.prefix_id,
    });
    expect(badYaml.status).toBe(400);
    expect(messages(badYaml.body).join(' ')).toMatch(/settings is not valid YAML at line \d+, column \d+/);
    const unknown = await admin.post('/router', {
      name: 'x',
      type: 'router',
      settings: RULES,
      default_receiver: 'tem_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    });
    expect(unknown.status).toBe(400);
    expect(messages(unknown.body).join(' ')).toMatch(/default_receiver/);
    expect(
      (await alice.client.post('/router', { name: 'x', type: 'router', settings: RULES, default_receiver: team.prefix_id })).status,
    ).toBe(403);
  });

  // Found by typescript-eslint's no-base-to-string: the check for a router's default_receiver read the
  // type through String(), which threw on an object with an own toString key (a 500) and read ['router'] as 'router'.
  it('a type that is not text is a 400 naming type alone, never a 500', async () => {
    for (const type of [{ toString: 1 }, ['router']]) {
      const res = await admin.post('/router', { name: 'x', type, settings: RULES });
      expect(res.status, res.text).toBe(400);
      expect(messages(res.body)).toEqual(['type must be one of: router, notification']);
    }
  });

  it('type notification reads and writes the notification rules of /api/v4/notification_rules', async () => {
    const yaml = 'rules:\n  - match:\n      always: true\n    actions:\n      - type: notify\n        channels: [push]\n';
    const res = await admin.post('/router', { name: 'My paging', type: 'notification', settings: yaml });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ type: 'notification', default_receiver: null, settings: yaml, rules: yaml });
    expect(res.body.id).toMatch(/^nrl_/);
    const v4 = await admin.get(`/api/v4/notification_rules/${res.body.id}`);
    expect(v4.status).toBe(200);
    expect(v4.body).toMatchObject({ name: 'My paging', rules: yaml, enabled: true });
    const viaV4 = await admin.put(`/api/v4/notification_rules/${v4.body.id}`, { name: 'Renamed rule' });
    expect(viaV4.status).toBe(200);
    expect((await admin.get(`/router/${res.body.id}`)).body.name).toBe('Renamed rule');
    expect((await admin.get(`/router/${v4.body.id}`)).body.type).toBe('notification');
    const listed = await admin.get('/router?type=notification&limit=100');
    expect(listed.body.data.map((r: { id: string }) => r.id)).toContain(res.body.id);
    expect(listed.body.data.every((r: { type: string }) => r.type === 'notification')).toBe(true);
    const routerYamlAsRule = await admin.post('/router', { name: 'x', type: 'notification', settings: RULES });
    expect(routerYamlAsRule.status).toBe(400);
    const retype = await admin.put(`/router/${res.body.id}`, { type: 'router' });
    expect(retype.status).toBe(400);
    expect((await admin.delete(`/router/${res.body.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v4/notification_rules/${v4.body.id}`)).status).toBe(404);
  });

  it('lists routers and notification rules together, newest first, with select', async () => {
    const listed = await admin.get('/router?limit=100&select=name,type');
    expect(listed.status).toBe(200);
    expect(listed.body.total_count).toBe(listed.body.data.length);
    const ids = listed.body.data.map((r: { id: string }) => r.id.slice(4));
    expect([...ids].sort().reverse()).toEqual(ids);
    expect(Object.keys(listed.body.data[0]).sort()).toEqual(['id', 'name', 'type']);
  });

  it('serves the default templates as JSON strings that POST /router accepts as they are', async () => {
    for (const type of ['router', 'notification'] as const) {
      const res = await admin.get(`/router/default-template/${type}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/json/);
      expect(res.text.startsWith('"---\\nrules:\\n')).toBe(true);
      expect(typeof res.body).toBe('string');
      const created = await admin.post('/router', {
        name: `From template ${type}`,
        type,
        settings: res.body,
        ...(type === 'router' ? { default_receiver: team.prefix_id } : {}),
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.settings).toBe(res.body);
    }
    expect((await admin.get('/router/default-template/other')).status).toBe(404);
  });
});

describe('dry run', () => {
  it('explains the matched rule, conditions with the values seen, rules tried before, and resolved actions', async () => {
    const router = (await admin.post('/api/v4/routers', { name: 'Dry', default_receiver_team_id: team.id, rules: RULES })).body;
    const res = await admin.post(`/api/v4/routers/${router.id}/test`, { alert: { title: 'DB down', urgency: 'critical', tags: ['db'] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.matched_rule).toMatchObject({ index: 0, conditions: [{ condition: 'alert.urgency', held: true, saw: 'critical' }] });
    expect(res.body.tried).toEqual([]);
    expect(res.body.plan.actions).toEqual([
      { type: 'assign', receivers: ['tem_01ARZ3NDEKTSV4RRFFQ69G5FAV'], delay_ms: 300_000 },
      { type: 'setval', values: { title: '[P1] DB down' } },
    ]);
    const low = await admin.post(`/api/v4/routers/${router.prefix_id}/test`, { alert: { title: 'x', urgency: 'low' } });
    expect(low.body.matched_rule.index).toBe(1);
    expect(low.body.tried).toEqual([
      { index: 0, failed_condition: expect.objectContaining({ condition: 'alert.urgency', held: false, saw: 'low' }) },
    ]);
    expect(low.body.plan.suppressed).toBe(true);
    // No side effects: the router is unchanged and no alert was made.
    expect((await admin.get('/api/v4/alerts')).body.total_count).toBe(0);
  });

  it('validates its body', async () => {
    const router = (await admin.post('/api/v4/routers', { name: 'Dry 2', default_receiver_team_id: team.id })).body;
    const bad = await admin.post(`/api/v4/routers/${router.id}/test`, { alert: 'nope' });
    expect(bad.status).toBe(422);
    expect(messages(bad.body)).toContain('alert must be an object');
    const missing = await admin.post(`/api/v4/routers/${router.id}/test`, {});
    expect(missing.status).toBe(422);
    const ok = await alice.client.post(`/api/v4/routers/${router.id}/test`, { alert: { title: 'x' }, log: { data: { a: 1 } } });
    expect(ok.status).toBe(200);
    expect(ok.body.plan).toMatchObject({ used_default: true, assignments: [{ receiver: team.prefix_id, kind: 'team' }] });
  });
});
