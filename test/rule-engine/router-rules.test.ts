import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROUTER_TEMPLATE, parseRouterRules } from '../../lib/rule-engine';
import { parsedRouter, routerFaults, routerYaml } from './support';
import { loadEveryPackageOnFirstUse } from '../../lib/on-first-use';

// The engines are called directly here: the packages they load on first use are loaded beforehand.
beforeAll(loadEveryPackageOnFirstUse);

const ignoreAll = [{ type: 'ignore' }];

describe('router YAML validation names each fault', () => {
  it('accepts the real service format: match conditions and a list of typed actions', () => {
    const set = parsedRouter(`---
rules:
  - match:
      alert.urgency:
        $in: ["high", "critical"]
    actions:
      - type: assign
        receiver: tem_01HZX3J0F5W3B6V9C2Q8R7T4NM
        delay: 30s
      - type: setval
        map:
          title: "{{alert.title}}"
          urgency: critical
          tags: [a, "{{log.data.host}}"]
      - type: incident
        severity: sev-2
        message: "{{alert.title}} is down"
      - type: aggregate
        by: [alert.title, log.data.host]
        timeout: 10m
        receiver: rtr_NEXT
      - type: stakeholder
        ids: [stk_ABC, usr_DEF]
      - type: automation
        id: atm_XYZ
`);

    expect(set.rules[0].actions).toEqual([
      { type: 'assign', receivers: ['tem_01HZX3J0F5W3B6V9C2Q8R7T4NM'], delay_ms: 30_000 },
      { type: 'setval', map: { title: '{{alert.title}}', urgency: 'critical', tags: ['a', '{{log.data.host}}'] } },
      { type: 'incident', severity: 'SEV-2', message: '{{alert.title}} is down' },
      { type: 'aggregate', by: ['alert.title', 'log.data.host'], timeout_ms: 600_000, receivers: ['rtr_NEXT'] },
      { type: 'stakeholder', ids: ['stk_ABC', 'usr_DEF'] },
      { type: 'automation', id: 'atm_XYZ' },
    ]);
  });

  it('a rule without match or actions', () => {
    expect(routerFaults(routerYaml([{ actions: ignoreAll }]))).toEqual([
      'rules[0] has no match (write always: true to match every alert) (line 2, column 5)',
    ]);
    expect(routerFaults(routerYaml([{ match: { always: true } }]))[0]).toMatch(/^rules\[0\] has no actions/);
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [] }]))[0]).toMatch(
      /^rules\[0\]\.actions must be a list of one or more actions/,
    );
  });

  it('an unknown action names the rule, the action and the type', () => {
    const faults = routerFaults(
      routerYaml([
        { match: { always: true }, actions: ignoreAll },
        { match: { always: true }, actions: ignoreAll },
        { match: { always: true }, actions: [{ type: 'foo' }] },
      ]),
    );

    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatch(/^rules\[2\]\.actions\[0\]\.type is not a known action: foo /);
  });

  it('the map form of an action gets a hint towards the type form', () => {
    const faults = routerFaults(routerYaml([{ match: { always: true }, actions: [{ assign: { receiver: 'tem_A' } }] }]));

    expect(faults[0]).toMatch(/^rules\[0\]\.actions\[0\] has no type \(write "- type: assign" with its settings beside the type\)/);
  });

  it('an unknown operator, and $where, are refused', () => {
    expect(routerFaults(routerYaml([{ match: { 'alert.title': { $foo: 1 } }, actions: ignoreAll }]))[0]).toMatch(
      /^rules\[0\]\.match\["alert\.title"\]\.\$foo is not a known operator/,
    );
    expect(routerFaults(routerYaml([{ match: { $where: 'this.x' }, actions: ignoreAll }]))[0]).toMatch(/\$where is not allowed/);
    expect(routerFaults(routerYaml([{ match: { $expr: {} }, actions: ignoreAll }]))[0]).toMatch(/\$expr is not a known operator/);
  });

  it('receivers need a known prefix; existence is not checked', () => {
    expect(
      parseRouterRules(
        routerYaml([{ match: { always: true }, actions: [{ type: 'assign', receiver: ['tem_doesnotexist', 'usr_1', 'rtr_2', 'skd_3'] }] }]),
      ).ok,
    ).toBe(true);
    const faults = routerFaults(
      routerYaml([{ match: { always: true }, actions: [{ type: 'assign', receiver: ['tem_ok', 'acc_1', 'foo'] }] }]),
    );

    expect(faults).toHaveLength(2);
    expect(faults[0]).toMatch(
      /^rules\[0\]\.actions\[0\]\.receiver\[1\] is not a receiver id with a known prefix \(tem_, usr_, rtr_, skd_\): "acc_1"/,
    );
    expect(faults[1]).toMatch(/receiver\[2\] is not a receiver id/);
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'assign' }] }]))[0]).toMatch(/receiver is required/);
  });

  it('durations: ms notation or minutes; others refused', () => {
    const ok = parsedRouter(
      routerYaml([
        {
          match: { always: true },
          actions: [
            { type: 'assign', receiver: 'tem_A', delay: 5 },
            { type: 'assign', receiver: 'tem_B', delay: '1h' },
          ],
        },
      ]),
    );
    expect(ok.rules[0].actions).toMatchObject([{ delay_ms: 300_000 }, { delay_ms: 3_600_000 }]);
    expect(
      routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'assign', receiver: 'tem_A', delay: 'soon' }] }]))[0],
    ).toMatch(/^rules\[0\]\.actions\[0\]\.delay is not a duration/);
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'assign', receiver: 'tem_A', delay: -1 }] }]))[0]).toMatch(
      /zero or more/,
    );
  });

  it('setval: known fields, valid urgency, valid templates', () => {
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'setval', map: { owner: 'x' } }] }]))[0]).toMatch(
      /^rules\[0\]\.actions\[0\]\.map\.owner is not a field setval can set \(title, description, urgency, tags\)/,
    );
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'setval', map: { urgency: 'urgent' } }] }]))[0]).toMatch(
      /must be one of low, medium, high, critical, silent/,
    );
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'setval', map: { title: '{{#if}}' } }] }]))[0]).toMatch(
      /is not a valid Handlebars template/,
    );
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'setval' }] }]))[0]).toMatch(
      /map must be a mapping of the fields to set/,
    );
  });

  it('templates may not use partials, decorators, nested each, unknown helpers or prototype paths', () => {
    const fault = (title: string) =>
      routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'setval', map: { title } }] }]))[0];

    expect(fault('{{> header}}')).toMatch(/may not use partials/);
    expect(fault('{{#*inline "p"}}{{> p}}{{/inline}}{{> p}}')).toMatch(/may not use (partials|decorators)/);
    expect(fault('{{#each alert.tags}}{{#each ../alert.tags}}x{{/each}}{{/each}}')).toMatch(
      /may not nest \{\{#each\}\} inside \{\{#each\}\}/,
    );
    expect(fault('{{log "x"}}')).toMatch(/unknown helper log/);
    expect(fault('{{exec "rm -rf /"}}')).toMatch(/unknown helper exec/);
    expect(fault('{{alert.constructor.name}}')).toMatch(/may not read alert\.constructor\.name/);
    expect(fault('{{lookup alert "__proto__"}}')).toMatch(/may not look up "__proto__"/);
  });

  it('incident severity, aggregate paths, stakeholders and automations are checked', () => {
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'incident', severity: 'SEV-9' }] }]))[0]).toMatch(
      /severity must be one of SEV-1/,
    );
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'aggregate', timeout: '5m' }] }]))[0]).toMatch(
      /by must be a field path/,
    );
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'aggregate', by: 'alert..title' }] }]))[0]).toMatch(
      /is not a field path/,
    );
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'stakeholder', ids: ['tem_A'] }] }]))[0]).toMatch(
      /is not a stakeholder id/,
    );
    expect(routerFaults(routerYaml([{ match: { always: true }, actions: [{ type: 'automation', id: 'rtr_A' }] }]))[0]).toMatch(
      /must be an automation id/,
    );
    expect(parsedRouter(routerYaml([{ match: { always: true }, actions: [{ type: 'incident' }] }])).rules[0].actions).toEqual([
      { type: 'incident', severity: null, message: null },
    ]);
    expect(
      parsedRouter(routerYaml([{ match: { always: true }, actions: [{ type: 'aggregate', by: 'alert.title' }] }])).rules[0].actions[0],
    ).toMatchObject({ timeout_ms: 300_000, receivers: [] });
  });

  it('operator arguments are checked', () => {
    const fault = (match: Record<string, unknown>) => routerFaults(routerYaml([{ match, actions: ignoreAll }]))[0];

    expect(fault({ 'alert.x': { $in: 'high' } })).toMatch(/\$in must be a list/);
    expect(fault({ 'alert.x': { $gt: { a: 1 } } })).toMatch(/\$gt must be a number, text or boolean/);
    expect(fault({ 'alert.x': { $exists: 'yes' } })).toMatch(/\$exists must be true or false/);
    expect(fault({ 'alert.x': { $size: -1 } })).toMatch(/\$size must be a whole number/);
    expect(fault({ 'alert.x': { $mod: [0, 1] } })).toMatch(/\$mod must be \[divisor, remainder\]/);
    expect(fault({ 'alert.x': { $type: 'objectId' } })).toMatch(/\$type must name a type/);
    expect(fault({ 'alert.x': { $regex: '(a)\\1' } })).toMatch(/\$regex is not a supported regular expression \(RE2 syntax/);
    expect(fault({ 'alert.x': { $regex: '(?=a)' } })).toMatch(/not a supported regular expression/);
    expect(fault({ 'alert.x': { $regex: 'a'.repeat(600) } })).toMatch(/longer than 512 characters/);
    expect(fault({ 'alert.x': { $regex: 'a', $options: 'x' } })).toMatch(/\$options that must be made of the letters i, m and s/);
    expect(fault({ 'alert.x': { $options: 'i' } })).toMatch(/needs a \$regex beside it/);
    expect(fault({ $or: [] })).toMatch(/\$or must be a list of one or more mappings/);
    expect(fault({ 'alert.x': { $or: [{ a: 1 }] } })).toMatch(/cannot be used under a field path/);
    expect(fault({ 'alert.x': { $in: [1], y: 2 } })).toMatch(/cannot stand beside operators/);
    expect(fault({ $exists: true })).toMatch(/must be under a field path/);
    expect(fault({ 'alert..x': 1 })).toMatch(/is not a valid field path/);
    expect(fault({ 'alert.x': { $elemMatch: 3 } })).toMatch(/\$elemMatch must be a mapping/);
  });

  it('time operators check their settings', () => {
    const fault = (match: Record<string, unknown>) => routerFaults(routerYaml([{ match, actions: ignoreAll }]))[0];

    expect(fault({ $day: { timezone: 'Mars/Olympus', $in: [6, 7] } })).toMatch(
      /\$day\.timezone is not a known IANA time zone: "Mars\/Olympus"/,
    );
    expect(fault({ $day: { timezone: 'UTC' } })).toMatch(/\$day needs a condition on the value it computes/);
    expect(fault({ $now: { format: 'gggg', $eq: '2024' } })).toMatch(/\$now\.format uses the format token gggg, which is not supported/);
    expect(fault({ $timeBetween: { starttime: '09:00 am' } })).toMatch(/\$timeBetween\.endtime is required/);
    expect(fault({ $timeBetween: { starttime: 'noon', endtime: '05:00 pm' } })).toMatch(
      /\$timeBetween\.starttime is not a time written as hh:mm a: "noon"/,
    );
    expect(fault({ $timeBetween: { starttime: '9', endtime: '5', timeformat: 'YYYY' } })).toMatch(/timeformat may hold only time tokens/);
    expect(fault({ $timeBetween: { starttime: '9', endtime: '5', start: 1 } })).toMatch(
      /\$timeBetween\.start is not a setting of \$timeBetween/,
    );
    expect(fault({ 'alert.created_at': { $day: { $in: [1] } } })).toMatch(/cannot be used under a field path/);
    expect(fault({ 'alert.tags': { $elemMatch: { $now: { $eq: 'x' } } } })).toMatch(/can only be used at the top of match/);
    expect(
      parseRouterRules(
        routerYaml([
          {
            match: { $and: [{ $day: { $in: [1, 2] } }, { $not: { $timeBetween: { starttime: '1:00 am', endtime: '2:00 am' } } }] },
            actions: ignoreAll,
          },
        ]),
      ).ok,
    ).toBe(true);
  });

  it('unknown keys are warnings, not faults', () => {
    const parsed = parseRouterRules(routerYaml([{ name: 'night', match: { always: true }, actions: [{ type: 'ignore', reason: 'x' }] }]));

    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.warnings).toEqual([
        'rules[0].name is not read (a rule holds match and actions) (line 2, column 11)',
        'rules[0].actions[0].reason is not a setting of ignore; it is ignored (line 7, column 17)',
      ]);
    }
  });

  it('the document needs a rules list of mappings', () => {
    expect(routerFaults('foo: 1\n')).toEqual([
      'rules must be YAML with a top-level rules list, each rule with match and actions (line 1, column 1)',
    ]);
    expect(routerFaults('rules: 3\n')[0]).toMatch(/^rules must be a list of rules, not 3/);
    expect(routerFaults('rules: [3]\n')[0]).toMatch(/^rules\[0\] must be a mapping with match and actions, not 3/);
    expect(routerFaults(`rules:\n${'  - {match: {always: true}, actions: [{type: ignore}]}\n'.repeat(201)}`)[0]).toMatch(
      /at most 200 are allowed/,
    );
  });

  it('collects every fault of a document, each with its position', () => {
    const parsed = parseRouterRules(`rules:
  - match: {always: true}
    actions:
      - type: assign
        receiver: team_1
      - type: nope
  - actions: [{type: ignore}]
`);

    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.faults.map((fault) => [fault.path, fault.line])).toEqual([
        ['rules[0].actions[0].receiver', 5],
        ['rules[0].actions[1].type', 6],
        ['rules[1]', 7],
      ]);
    }
  });

  it('the default template parses', () => {
    const set = parsedRouter(DEFAULT_ROUTER_TEMPLATE);

    expect(DEFAULT_ROUTER_TEMPLATE.startsWith('---\nrules:\n')).toBe(true);
    expect(set.rules.length).toBeGreaterThan(1);
  });
});
