// The rule engine as it is deployed: bundled with the functions' esbuild options (infra/bundling.ts)
// and run by plain Node. Dependencies with two builds (sift's CommonJS and ESM, yaml's ESM build,
// Handlebars without source-map) must behave in the bundle as they do under the test runner.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ESBUILD_OPTIONS } from '../../infra/bundling';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const PROGRAM = `
import { buildRoutingContext, evaluateRouter, parseRouterRules, parseNotificationRules } from ${JSON.stringify(path.join(root, 'lib/rule-engine/index.ts'))};
const text = [
  'rules:',
  '  - match:',
  '      alert.title: {$regex: "^db", $options: i}',
  '      alert.urgency: {$in: [high, critical]}',
  '      alert.tags: {$size: 2}',
  '    actions:',
  '      - type: setval',
  '        map:',
  '          title: "[{{log.data.service}}] {{alert.title}}"',
  '      - type: assign',
  '        receiver: tem_A',
  '  - match: {always: true}',
  '    actions:',
  '      - type: ignore',
].join('\\n');
const parsed = parseRouterRules(text);
if (!parsed.ok) throw new Error(parsed.messages.join('; '));
const router = { enabled: true, rules: parsed.value, default_receivers: ['tem_DEFAULT'] };
const hit = evaluateRouter(router, buildRoutingContext({ alert: { title: 'DB down', urgency: 'high', tags: ['a', 'b'] }, log: { data: { service: 'pay' } } }), Date.now());
const miss = evaluateRouter(router, buildRoutingContext({ alert: { title: 'Disk', urgency: 'high', tags: [] } }), Date.now());
const broken = parseRouterRules('rules: [\\n');
const notification = parseNotificationRules('rules:\\n  - match: {always: true}\\n    actions:\\n      - type: notify\\n        channels: [sms]\\n');
console.log(JSON.stringify({ hit: [hit.rule_index, hit.alert_changes], miss: miss.suppressed, broken: broken.ok ? null : broken.messages[0], notification: notification.ok }));
`;

describe('the rule engine in a deployed bundle', () => {
  it('parses, matches ($regex, $in, $size) and renders templates as under the test runner', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routing-bundle-'));
    try {
      writeFileSync(path.join(dir, 'entry.ts'), PROGRAM);
      await build({
        ...ESBUILD_OPTIONS,
        sourcemap: false,
        entryPoints: [path.join(dir, 'entry.ts')],
        outfile: path.join(dir, 'out.mjs'),
        logLevel: 'silent',
      });
      const out = JSON.parse(execFileSync(process.execPath, [path.join(dir, 'out.mjs')]).toString());
      expect(out.hit).toEqual([0, { title: '[pay] DB down' }]);
      expect(out.miss).toBe(true);
      expect(out.broken).toMatch(/line \d+, column \d+/);
      expect(out.notification).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
