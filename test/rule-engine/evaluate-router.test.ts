import { beforeAll, describe, expect, it } from 'vitest';
import { aggregateKey, evaluateRouter, explainRouter } from '../../lib/rule-engine';
import { NOON_UTC, context, router, routerYaml } from './support';
import { loadEveryPackageOnFirstUse } from '../../lib/on-first-use';

// The engines are called directly here: the packages they load on first use are loaded beforehand.
beforeAll(loadEveryPackageOnFirstUse);

const RULES = `---
rules:
  - match:
      alert.urgency: low
    actions:
      - type: ignore
  - match:
      alert.urgency:
        $in: [high, critical]
      log.data.service: db
    actions:
      - type: setval
        map:
          title: "[{{alert.urgency}}] {{alert.title}} ({{log.data.host}})"
          description: "{{#if log.data.runbook}}Runbook: {{log.data.runbook}}{{else}}No runbook{{/if}}"
          urgency: "{{log.data.level}}"
          tags: ["{{log.data.service}}", "{{#each log.data.labels}}{{this}}{{#unless @last}},{{/unless}}{{/each}}", ""]
      - type: assign
        receiver: [tem_DB, usr_LEAD]
      - type: assign
        receiver: tem_DB
        delay: 10m
  - match:
      always: true
    actions:
      - type: setval
        map:
          tags: [routed]
`;

const dbAlert = context(
  { title: 'Replication lag', urgency: 'high' },
  { service: 'db', host: 'db-1', level: 'critical', labels: ['eu', 'primary'] },
);

describe('router evaluation', () => {
  it('the first matching rule runs its actions, templates rendered with Handlebars', () => {
    const plan = evaluateRouter(router(RULES), dbAlert, NOON_UTC);

    expect(plan).toMatchObject({ router_id: 'rtr_TEST', outcome: 'matched', rule_index: 1, suppressed: false, used_default: false });
    expect(plan.alert_changes).toEqual({
      title: '[high] Replication lag (db-1)',
      description: 'No runbook',
      urgency: 'critical',
      tags: ['db', 'eu,primary'],
    });
    expect(plan.assignments).toEqual([
      { receiver: 'tem_DB', kind: 'team', delay_ms: 0, source: 'assign' },
      { receiver: 'usr_LEAD', kind: 'user', delay_ms: 0, source: 'assign' },
    ]);
    expect(plan.actions.map((action) => action.type)).toEqual(['setval', 'assign', 'assign']);
    expect(plan.evaluated_at).toBe(NOON_UTC);
  });

  it('ignore suppresses the alert and stops', () => {
    const plan = evaluateRouter(router(RULES), context({ title: 't', urgency: 'low' }), NOON_UTC);

    expect(plan).toMatchObject({ outcome: 'matched', rule_index: 0, suppressed: true, assignments: [], actions: [{ type: 'ignore' }] });
  });

  it('actions after an ignore do not run; actions before it do', () => {
    const text = routerYaml([
      {
        match: { always: true },
        actions: [{ type: 'setval', map: { title: 'x' } }, { type: 'ignore' }, { type: 'assign', receiver: 'tem_A' }],
      },
    ]);
    const plan = evaluateRouter(router(text), context({ title: 't' }), NOON_UTC);

    expect(plan.actions).toEqual([{ type: 'setval', values: { title: 'x' } }, { type: 'ignore' }]);
    expect(plan.assignments).toEqual([]);
  });

  it('a matched rule that assigns no one keeps the default receivers', () => {
    const plan = evaluateRouter(router(RULES, ['tem_DEFAULT', 'rtr_OTHER']), context({ title: 't', urgency: 'medium' }), NOON_UTC);

    expect(plan).toMatchObject({ outcome: 'matched', rule_index: 2, used_default: true, alert_changes: { tags: ['routed'] } });
    expect(plan.assignments).toEqual([
      { receiver: 'tem_DEFAULT', kind: 'team', delay_ms: 0, source: 'default' },
      { receiver: 'rtr_OTHER', kind: 'router', delay_ms: 0, source: 'default' },
    ]);
  });

  it('no matching rule → the default receivers', () => {
    const text = routerYaml([{ match: { 'alert.urgency': 'critical' }, actions: [{ type: 'assign', receiver: 'tem_A' }] }]);
    const plan = evaluateRouter(router(text, ['usr_DEFAULT']), context({ urgency: 'low' }), NOON_UTC);

    expect(plan).toMatchObject({ outcome: 'no_match', rule_index: null, used_default: true, actions: [] });
    expect(plan.assignments).toEqual([{ receiver: 'usr_DEFAULT', kind: 'user', delay_ms: 0, source: 'default' }]);
  });

  it('a disabled router routes to its default receivers without evaluating rules', () => {
    const plan = evaluateRouter(router(RULES, ['tem_DEFAULT'], false), context({ urgency: 'low' }), NOON_UTC);

    expect(plan).toMatchObject({ outcome: 'disabled', suppressed: false, used_default: true });
    expect(plan.assignments.map((a) => a.receiver)).toEqual(['tem_DEFAULT']);
  });

  it('takes the stored YAML text too, and falls back to the default receivers when it does not parse', () => {
    expect(evaluateRouter({ enabled: true, rules: RULES, default_receivers: ['tem_D'] }, dbAlert, NOON_UTC).rule_index).toBe(1);
    const broken = evaluateRouter({ enabled: true, rules: 'rules: [', default_receivers: ['tem_D'] }, dbAlert, NOON_UTC);
    expect(broken).toMatchObject({ outcome: 'invalid_rules', used_default: true });
    expect(broken.warnings[0]).toMatch(/do not parse/);
  });

  it('a rendered urgency that is not one is left unchanged, with a warning', () => {
    const plan = evaluateRouter(router(RULES), context({ title: 'x', urgency: 'high' }, { service: 'db', level: 'PANIC' }), NOON_UTC);

    expect(plan.alert_changes.urgency).toBeUndefined();
    expect(plan.warnings).toEqual(['rule 1: setval urgency rendered to "panic", which is not an urgency; left unchanged']);
  });

  it('templates cannot reach prototypes and their output is bounded', () => {
    const text = routerYaml([
      {
        match: { always: true },
        actions: [
          {
            type: 'setval',
            map: { title: '{{lookup alert log.data.key}}|{{alert.title}}', description: '{{#each log.data.items}}{{this}}{{/each}}' },
          },
        ],
      },
    ]);
    const plan = evaluateRouter(
      router(text),
      context({ title: 'T' }, { key: 'constructor', items: Array(5000).fill('0123456789') }),
      NOON_UTC,
    );

    expect(plan.alert_changes.title).toBe('|T');
    expect(plan.alert_changes.description).toHaveLength(16 * 1024);
  });

  it('templates are not HTML-escaped', () => {
    const text = routerYaml([{ match: { always: true }, actions: [{ type: 'setval', map: { title: '{{alert.title}}' } }] }]);

    expect(evaluateRouter(router(text), context({ title: 'a < b & "c"' }), NOON_UTC).alert_changes.title).toBe('a < b & "c"');
  });

  it('incident, stakeholder and automation actions', () => {
    const text = routerYaml([
      {
        match: { always: true },
        actions: [
          { type: 'incident', severity: '{{log.data.sev}}', message: 'Incident: {{alert.title}}' },
          { type: 'stakeholder', ids: ['stk_A', 'usr_B'] },
          { type: 'automation', id: 'atm_RESTART' },
        ],
      },
    ]);
    const plan = evaluateRouter(router(text), context({ title: 'Outage' }, { sev: 'sev-1' }), NOON_UTC);

    expect(plan.alert_changes).toEqual({
      meta: { incident: true, incident_severity: 'SEV-1', incident_message: 'Incident: Outage' },
      stakeholder_ids: ['stk_A', 'usr_B'],
    });
    expect(plan.actions).toEqual([
      { type: 'incident', severity: 'SEV-1', message: 'Incident: Outage' },
      { type: 'stakeholder', ids: ['stk_A', 'usr_B'] },
      { type: 'automation', id: 'atm_RESTART' },
    ]);
  });

  it('aggregate: the same values give the same key; its receiver is assigned', () => {
    const text = routerYaml([
      {
        match: { always: true },
        actions: [{ type: 'aggregate', by: ['alert.title', 'log.data.host'], timeout: '15m', receiver: 'tem_AGG' }],
      },
    ]);
    const a = evaluateRouter(router(text), context({ title: 'Down', urgency: 'high' }, { host: 'web-1', extra: 1 }), NOON_UTC);
    const b = evaluateRouter(router(text), context({ title: 'Down', urgency: 'low' }, { host: 'web-1', extra: 2 }), NOON_UTC);
    const c = evaluateRouter(router(text), context({ title: 'Down' }, { host: 'web-2' }), NOON_UTC);

    expect(a.actions[0]).toMatchObject({ type: 'aggregate', values: ['Down', 'web-1'], timeout_ms: 900_000, receivers: ['tem_AGG'] });
    expect(a.actions[0]).toHaveProperty('key', (b.actions[0] as { key: string }).key);
    expect(a.actions[0]).not.toHaveProperty('key', (c.actions[0] as { key: string }).key);
    expect(a.assignments).toEqual([{ receiver: 'tem_AGG', kind: 'team', delay_ms: 0, source: 'aggregate' }]);
    expect(aggregateKey([{ b: 1, a: 2 }])).toBe(aggregateKey([{ a: 2, b: 1 }]));
  });

  it('a receiver named twice is assigned once, at its earliest delay', () => {
    const plan = evaluateRouter(router(RULES), dbAlert, NOON_UTC);

    expect(plan.assignments.filter((a) => a.receiver === 'tem_DB')).toEqual([
      { receiver: 'tem_DB', kind: 'team', delay_ms: 0, source: 'assign' },
    ]);
  });

  it('time conditions use the instant given, not the system clock', () => {
    const text = routerYaml([
      {
        match: { $timeBetween: { timezone: 'Asia/Tokyo', starttime: '09:00 am', endtime: '06:00 pm' } },
        actions: [{ type: 'assign', receiver: 'tem_DAY' }],
      },
      { match: { always: true }, actions: [{ type: 'assign', receiver: 'tem_NIGHT' }] },
    ]);
    const day = evaluateRouter(router(text), context({}), Date.UTC(2024, 5, 3, 1, 0)); // 10:00 in Tokyo
    const night = evaluateRouter(router(text), context({}), { now: () => Date.UTC(2024, 5, 3, 14, 0) }); // 23:00

    expect(day.assignments[0].receiver).toBe('tem_DAY');
    expect(night.assignments[0].receiver).toBe('tem_NIGHT');
  });
});

describe('router dry run explains its decision', () => {
  it('names the matched rule, each condition with the value it saw, and the first failed condition of earlier rules', () => {
    const text = routerYaml([
      { match: { 'alert.urgency': 'critical', 'log.data.service': 'db' }, actions: [{ type: 'assign', receiver: 'tem_A' }] },
      { match: { 'log.data.service': 'db', 'alert.urgency': { $in: ['low'] } }, actions: [{ type: 'assign', receiver: 'tem_B' }] },
      {
        match: {
          'alert.urgency': { $in: ['high', 'critical'] },
          $or: [{ 'log.data.host': { $regex: '^web' } }, { 'log.data.host': 'db-1' }],
          $timeBetween: { timezone: 'Etc/UTC', starttime: '06:00 am', endtime: '06:00 pm' },
        },
        actions: [
          { type: 'setval', map: { title: 'Routed: {{alert.title}}' } },
          { type: 'assign', receiver: 'tem_C' },
        ],
      },
    ]);
    const explanation = explainRouter(router(text), dbAlert, NOON_UTC);

    expect(explanation.evaluated_at).toBe('2024-06-03T12:00:00.000Z');
    expect(explanation.tried).toEqual([
      { index: 0, failed_condition: { condition: 'alert.urgency', expected: 'critical', held: false, saw: 'high' } },
      { index: 1, failed_condition: { condition: 'alert.urgency', expected: { $in: ['low'] }, held: false, saw: 'high' } },
    ]);
    expect(explanation.matched_rule).toEqual({
      index: 2,
      conditions: [
        { condition: 'alert.urgency', expected: { $in: ['high', 'critical'] }, held: true, saw: 'high' },
        {
          condition: '$or',
          expected: [{ 'log.data.host': { $regex: '^web' } }, { 'log.data.host': 'db-1' }],
          held: true,
          branches: [
            { index: 0, held: false, conditions: [{ condition: 'log.data.host', expected: { $regex: '^web' }, held: false, saw: 'db-1' }] },
            { index: 1, held: true, conditions: [{ condition: 'log.data.host', expected: 'db-1', held: true, saw: 'db-1' }] },
          ],
        },
        {
          condition: '$timeBetween',
          expected: { timezone: 'Etc/UTC', starttime: '06:00 am', endtime: '06:00 pm' },
          held: true,
          saw: { time: '12:00 pm', timezone: 'Etc/UTC' },
        },
      ],
    });
    expect(explanation.plan.actions).toEqual([
      { type: 'setval', values: { title: 'Routed: Replication lag' } },
      { type: 'assign', receivers: ['tem_C'], delay_ms: 0 },
    ]);
  });

  it('when no rule matches, every rule is listed as tried and the default receivers are the plan', () => {
    const text = routerYaml([{ match: { $day: { timezone: 'Etc/UTC', $in: [6, 7] } }, actions: [{ type: 'ignore' }] }]);
    const explanation = explainRouter(router(text), dbAlert, NOON_UTC);

    expect(explanation.matched_rule).toBeNull();
    expect(explanation.tried).toEqual([
      {
        index: 0,
        failed_condition: {
          condition: '$day',
          expected: { timezone: 'Etc/UTC', $in: [6, 7] },
          held: false,
          saw: { weekday: 1, timezone: 'Etc/UTC' },
        },
      },
    ]);
    expect(explanation.plan).toMatchObject({ outcome: 'no_match', used_default: true });
  });

  it('$not and $nor report their branches', () => {
    const text = routerYaml([
      { match: { $not: { 'alert.urgency': 'high' }, $nor: [{ 'log.data.service': 'web' }] }, actions: [{ type: 'ignore' }] },
    ]);
    const explanation = explainRouter(router(text), dbAlert, NOON_UTC);

    expect(explanation.matched_rule).toBeNull();
    expect(explanation.tried[0].failed_condition).toEqual({
      condition: '$not',
      expected: { 'alert.urgency': 'high' },
      held: false,
      branches: [{ index: 0, held: true, conditions: [{ condition: 'alert.urgency', expected: 'high', held: true, saw: 'high' }] }],
    });
  });

  it('a disabled router explains nothing but the default receivers', () => {
    const explanation = explainRouter(router(RULES, ['tem_D'], false), dbAlert, NOON_UTC);

    expect(explanation).toMatchObject({ enabled: false, matched_rule: null, tried: [], plan: { outcome: 'disabled' } });
  });

  it('long values are cut in explanations', () => {
    const text = routerYaml([{ match: { 'alert.title': 'x' }, actions: [{ type: 'ignore' }] }]);
    const explanation = explainRouter(router(text), context({ title: 'y'.repeat(5000) }), NOON_UTC);

    expect(String(explanation.tried[0].failed_condition!.saw)).toHaveLength(201);
  });
});
