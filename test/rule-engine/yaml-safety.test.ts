import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, parseNotificationRules, parseRouterRules } from '../../lib/rule-engine';
import { routerFaults } from './support';
import { withCpuTime } from '../support/cpu-time';
import { loadEveryPackageOnFirstUse } from '../../lib/on-first-use';

// The engines are called directly here: the packages they load on first use are loaded beforehand.
beforeAll(loadEveryPackageOnFirstUse);

const BILLION_LAUGHS = `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
rules:
  - match: {always: true}
    actions: [{type: ignore}]
    note: *g
`;

describe('router YAML is loaded safely', () => {
  it('refuses an alias bomb quickly instead of expanding it', async () => {
    const { value: faults, cpuMs } = await withCpuTime(() => routerFaults(BILLION_LAUGHS));

    expect(cpuMs).toBeLessThan(2000);
    expect(faults.join()).toMatch(/aliases that expand too far/);
  });

  it('refuses aliases that expand past the node bound even under the alias-count guard', () => {
    // 40 uses of one anchor holding 1 000 values: 40 000 values once expanded.
    const big = `[${Array.from({ length: 1000 }, (_, i) => i).join(',')}]`;
    const text = `x: &x ${big}\nrules:\n  - match: {always: true}\n    actions: [{type: ignore}]\n    note: [${Array(40).fill('*x').join(',')}]\n`;

    expect(routerFaults(text).join()).toMatch(/more than 20000 values|aliases that expand too far/);
  });

  it('accepts a few ordinary anchors and aliases', () => {
    const text = `defaults: &page
  - type: assign
    receiver: tem_ONCALL
rules:
  - match: {alert.urgency: high}
    actions: *page
  - match: {always: true}
    actions: *page
`;
    const parsed = parseRouterRules(text);

    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.value.rules[1].actions).toEqual([{ type: 'assign', receivers: ['tem_ONCALL'], delay_ms: 0 }]);
  });

  it('names the line and column of a syntax error', () => {
    const text = 'rules:\n  - match:\n      alert.urgency: [high\n    actions: x\n';
    const parsed = parseRouterRules(text);

    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.faults[0]).toMatchObject({ line: 4, column: 5 });
      expect(parsed.messages[0]).toMatch(/^rules is not valid YAML at line 4, column 5: /);
    }
  });

  it('names the request field in messages about the text as a whole', () => {
    const parsed = parseRouterRules('rules: [', { field: 'settings' });

    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.messages[0]).toMatch(/^settings is not valid YAML at line 1, column \d+/);
  });

  it('refuses duplicate keys, several documents and custom tags', () => {
    expect(routerFaults('rules: []\nrules: []\n')[0]).toMatch(/line 2, column 1: Map keys must be unique/);
    expect(routerFaults('rules: []\n---\nrules: []\n')[0]).toMatch(/multiple documents/);
    expect(routerFaults("rules:\n  - match: !!js/function 'return true'\n    actions: [{type: ignore}]\n")[0]).toMatch(/Unresolved tag/);
  });

  it('refuses a text longer than the bound before parsing it', () => {
    const text = `rules: []\n#${'x'.repeat(LIMITS.yamlBytes)}\n`;

    expect(routerFaults(text)).toEqual([`rules is longer than ${LIMITS.yamlBytes} bytes`]);
  });

  it('refuses nesting deeper than the bound', () => {
    const deep = `${'['.repeat(40)}1${']'.repeat(40)}`;
    const faults = routerFaults(`rules:\n  - match: {always: true}\n    actions: [{type: ignore}]\n    x: ${deep}\n`);

    expect(faults.join()).toMatch(/nested deeper than 32 levels/);
  });

  it('refuses prototype keys anywhere', () => {
    const faults = routerFaults('rules:\n  - match:\n      __proto__: {polluted: true}\n    actions: [{type: ignore}]\n');

    expect(faults[0]).toMatch(/^rules\[0\]\.match\.__proto__ is not an allowed key \(line 3, column \d+\)/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses non-finite numbers', () => {
    expect(routerFaults('rules:\n  - match: {alert.x: {$gt: .inf}}\n    actions: [{type: ignore}]\n')[0]).toMatch(/finite number/);
  });

  it('refuses empty and non-text input', () => {
    expect(routerFaults('')).toEqual(['rules is empty']);
    expect(routerFaults('   \n')).toEqual(['rules is empty']);
    const parsed = parseNotificationRules(42);
    expect(parsed.ok).toBe(false);
  });

  it('keeps the text exactly as sent', () => {
    const text = '# my router\nrules:   # comment kept\n  - match: {always: true}\n    actions:\n      - {type: ignore}   \n';
    const parsed = parseRouterRules(text);

    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.value.text).toBe(text);
  });
});
