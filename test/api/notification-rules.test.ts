// Notification rules through the real local server (api-v4.md "Notification rule", docs/api.md#escalation-and-notifications):
// the YAML validated and stored as sent, assignment through an account user's notification_rule_id,
// deletion clearing the pointers, the lookup escalation uses, and the dry run.
import { describe, expect, it } from 'vitest';
import { getAccountUser } from '../../lib/account-users/store';
import { notificationRuleFor } from '../../lib/notification-rules/notification-rule-for';
import { pickChannels } from '../../lib/rule-engine';
import { signupAccount, useService, type TestService } from '../support/runtime';
import type { ApiClient } from '../support/api-client';
import { people, type Person } from '../teams/helpers';

let service: TestService;
let admin: ApiClient;
let alice: Person;
let accountId: string;

useService(async (started) => {
  service = started;
  admin = service.admin;
  [alice] = await people(admin, 1);
  accountId = (await admin.get(`/api/v4/account_users/${alice.id}`)).body.account_id;
});

const YAML = `rules:
  - match:
      alert.urgency:
        $in: [high, critical]
    actions:
      - type: notify
        channels: [sms, voice]
        timeout: 1m
      - type: repeat
        times: 1
  - match:
      always: true
    actions:
      - type: notify
        channels: [email]
`;

const messages = (body: { errors: { message: string }[] }) => body.errors.map((e) => e.message).join(' | ');

describe('notification rules', () => {
  it('creates with only a name; rules are stored as sent', async () => {
    const bare = await admin.post('/api/v4/notification_rules', { name: 'Bare' });
    expect(bare.status, bare.text).toBe(201);
    expect(bare.body).toMatchObject({ name: 'Bare', enabled: true, rules: null });
    expect(bare.body.prefix_id).toBe(`nrl_${bare.body.id}`);
    const full = await admin.post('/api/v4/notification_rules', { name: 'Full', rules: YAML, enabled: false });
    expect(full.body).toMatchObject({ rules: YAML, enabled: false });
    expect((await admin.get(`/api/v4/notification_rules/${full.body.prefix_id}`)).body.rules).toBe(YAML);
    expect((await admin.post('/api/v4/notification_rules', { rules: YAML })).status).toBe(422);
  });

  it('refuses faulty YAML with the fault named; nothing is stored', async () => {
    const before = (await admin.get('/api/v4/notification_rules')).body.total_count;
    const cases: [string, RegExp][] = [
      ['rules:\n  - match: {always: true\n', /line \d+, column \d+/],
      ['rules:\n  - match: {always: true}\n    actions:\n      - type: page\n', /not a known action: page/],
      ['rules:\n  - match: {always: true}\n    actions:\n      - type: notify\n        channels: [pigeon]\n', /not a channel/],
      ['rules:\n  - match: {always: true}\n    actions:\n      - type: repeat\n        times: 9\n', /from 0 to 3/],
      ['rules:\n  - actions:\n      - type: ignore\n', /has no match/],
    ];
    for (const [rules, pattern] of cases) {
      const res = await admin.post('/api/v4/notification_rules', { name: 'x', rules });
      expect(res.status, rules).toBe(422);
      expect(messages(res.body), rules).toMatch(pattern);
    }
    expect((await admin.get('/api/v4/notification_rules')).body.total_count).toBe(before);
  });

  it('updates partially and refuses a bad update without changing anything', async () => {
    const rule = (await admin.post('/api/v4/notification_rules', { name: 'Edit', rules: YAML })).body;
    const res = await admin.put(`/api/v4/notification_rules/${rule.id}`, { enabled: false });
    expect(res.body).toMatchObject({ enabled: false, rules: YAML, name: 'Edit' });
    expect((await admin.put(`/api/v4/notification_rules/${rule.id}`, { rules: 'nope: [' })).status).toBe(422);
    expect((await admin.get(`/api/v4/notification_rules/${rule.id}`)).body.rules).toBe(YAML);
  });

  it('is assigned through notification_rule_id (which must exist), and the lookup escalation uses follows it', async () => {
    const rule = (await admin.post('/api/v4/notification_rules', { name: 'Assigned', rules: YAML })).body;
    const unknown = await admin.put(`/api/v4/account_users/${alice.id}`, { notification_rule_id: 'nrl_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    expect(unknown.status).toBe(422);
    expect(messages(unknown.body)).toMatch(/notification_rule_id/);
    const assigned = await admin.put(`/api/v4/account_users/${alice.id}`, { notification_rule_id: rule.prefix_id });
    expect(assigned.status, assigned.text).toBe(200);
    expect(assigned.body.notification_rule_id).toBe(rule.id);

    const accountUser = (await getAccountUser(accountId, alice.id))!;
    const found = await notificationRuleFor(accountUser);
    expect(found?.id).toBe(rule.prefix_id);
    const plan = pickChannels(found, accountUser.user, { alert: { urgency: 'critical' } });
    expect(plan).toMatchObject({ source: 'rule', steps: [{ at_offset_ms: 0, channels: ['sms', 'voice'] }, { at_offset_ms: 60_000 }] });

    await admin.put(`/api/v4/notification_rules/${rule.id}`, { enabled: false });
    expect(await notificationRuleFor(accountUser)).toBeNull();

    // Deleting the rule clears the pointer: the user is paged on their default channels.
    expect((await admin.delete(`/api/v4/notification_rules/${rule.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v4/account_users/${alice.id}`)).body.notification_rule_id).toBeNull();
    expect(await notificationRuleFor({ account_id: accountId, notification_rule_id: rule.id })).toBeNull();
  });

  it('dry run: the channels a page would use, and why', async () => {
    const rule = (await admin.post('/api/v4/notification_rules', { name: 'Dry', rules: YAML })).body;
    const high = await admin.post(`/api/v4/notification_rules/${rule.id}/test`, { alert: { title: 'x', urgency: 'high' } });
    expect(high.status, high.text).toBe(200);
    expect(high.body.matched_rule).toMatchObject({ index: 0, conditions: [{ condition: 'alert.urgency', held: true, saw: 'high' }] });
    expect(high.body.plan.steps[0].channels).toEqual(['sms', 'voice']);
    const low = await admin.post(`/api/v4/notification_rules/${rule.id}/test`, { alert: { urgency: 'low' }, account_user_id: alice.id });
    expect(low.body.matched_rule.index).toBe(1);
    expect(low.body.tried[0].failed_condition).toMatchObject({ held: false, saw: 'low' });
    const other = await admin.post(`/api/v4/notification_rules/${rule.id}/test`, { alert: { urgency: 'low' }, type: 'alert.resolved' });
    expect(other.body.plan).toMatchObject({ source: 'default', reason: 'no_match' });
    expect((await admin.post(`/api/v4/notification_rules/${rule.id}/test`, { alert: [] })).status).toBe(422);
    expect(
      (await admin.post(`/api/v4/notification_rules/${rule.id}/test`, { alert: {}, account_user_id: 'acu_01ARZ3NDEKTSV4RRFFQ69G5FAV' }))
        .status,
    ).toBe(422);
  });

  it('roles and accounts', async () => {
    const rule = (await admin.post('/api/v4/notification_rules', { name: 'Guarded' })).body;
    expect((await alice.client.post('/api/v4/notification_rules', { name: 'x' })).status).toBe(403);
    expect((await alice.client.put(`/api/v4/notification_rules/${rule.id}`, { name: 'x' })).status).toBe(403);
    expect((await alice.client.delete(`/api/v4/notification_rules/${rule.id}`)).status).toBe(403);
    expect((await alice.client.get(`/api/v4/notification_rules/${rule.id}`)).status).toBe(200);
    const other = await signupAccount(service);
    expect((await other.client.get(`/api/v4/notification_rules/${rule.id}`)).status).toBe(404);
    expect((await other.client.delete(`/api/v4/notification_rules/${rule.id}`)).status).toBe(404);
    expect((await other.client.get(`/router/${rule.prefix_id}`)).status).toBe(404);
  });
});
