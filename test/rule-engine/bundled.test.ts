// The rule engine as it is deployed: bundled with the functions' esbuild options (infra/bundling.ts)
// and run by plain Node. Dependencies with two builds (sift's CommonJS and ESM, yaml's ESM build,
// Handlebars without source-map) must behave in the bundle as they do under the test runner; the
// YAML parser, RE2 and Handlebars' compiler are chunks of their own, loaded on first use
// (lib/on-first-use.ts), as a deployed function loads them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ESBUILD_OPTIONS, SPLIT_OPTIONS } from '../../infra/bundling';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const PROGRAM = `
import { buildRoutingContext, evaluateRouter, parseRouterRules, parseNotificationRules } from ${JSON.stringify(path.join(root, 'lib/rule-engine/index.ts'))};
import { NotLoadedYet, whenLoaded } from ${JSON.stringify(path.join(root, 'lib/on-first-use.ts'))};
let cold = null;
try { parseRouterRules('rules: []'); } catch (error) { cold = error instanceof NotLoadedYet; }
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
const parsed = await whenLoaded(() => parseRouterRules(text));
if (!parsed.ok) throw new Error(parsed.messages.join('; '));
const router = { enabled: true, rules: parsed.value, default_receivers: ['tem_DEFAULT'] };
const hit = await whenLoaded(() => evaluateRouter(router, buildRoutingContext({ alert: { title: 'DB down', urgency: 'high', tags: ['a', 'b'] }, log: { data: { service: 'pay' } } }), Date.now()));
const miss = evaluateRouter(router, buildRoutingContext({ alert: { title: 'Disk', urgency: 'high', tags: [] } }), Date.now());
const broken = parseRouterRules('rules: [\\n');
const notification = parseNotificationRules('rules:\\n  - match: {always: true}\\n    actions:\\n      - type: notify\\n        channels: [sms]\\n');
console.log(JSON.stringify({ cold, hit: [hit.rule_index, hit.alert_changes], miss: miss.suppressed, broken: broken.ok ? null : broken.messages[0], notification: notification.ok }));
`;

describe('the rule engine in a deployed bundle', () => {
  it('parses, matches ($regex, $in, $size) and renders templates as under the test runner', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routing-bundle-'));
    try {
      writeFileSync(path.join(dir, 'entry.ts'), PROGRAM);
      await build({
        ...ESBUILD_OPTIONS,
        sourcemap: false,
        ...SPLIT_OPTIONS,
        entryPoints: [path.join(dir, 'entry.ts')],
        outdir: path.join(dir, 'out'),
        logLevel: 'silent',
      });
      expect(readdirSync(path.join(dir, 'out', 'chunks')).length).toBeGreaterThanOrEqual(3);
      const out = JSON.parse(execFileSync(process.execPath, [path.join(dir, 'out', 'index.mjs')]).toString());
      expect(out.cold).toBe(true);
      expect(out.hit).toEqual([0, { title: '[pay] DB down' }]);
      expect(out.miss).toBe(true);
      expect(out.broken).toMatch(/line \d+, column \d+/);
      expect(out.notification).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
