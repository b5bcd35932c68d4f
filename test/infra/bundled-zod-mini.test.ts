// zod/mini as the queue workers', the sweeper's and the 404's bundles carry it (infra/bundling.ts
// aliases it to zodMiniOnItsOwn(): the builders of infra/bundled/zod-mini.ts built into one module):
// the Slack work messages and the response links' claims (and the configuration, which validates
// without zod since issue 21), bundled once with the package's zod/mini and once with the module
// apart, read hundreds of environments and messages, and every answer and refusal must be the same;
// again once zod's classic API is loaded beside it, as a worker's lazy path loads it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESBUILD_OPTIONS, zodMiniOnItsOwn } from '../../infra/bundling';
import { CONFIG_VARIABLES } from '../support/config-variables';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const from = (file: string) => JSON.stringify(path.join(root, file));

/** Every setting (numbers, switches, URLs, secrets, ids, choices), with values of every shape below. */
const NAMES = [...CONFIG_VARIABLES, 'TABLE_NAME'];
const VALUES = [
  undefined,
  '',
  '   ',
  '0',
  '1',
  '-1',
  '2.5',
  '1e3',
  'Infinity',
  'abc',
  'true',
  'false',
  'console',
  'https://oncall.example/',
  'http://',
  'ftp://x',
  '9007199254740993',
  '01JABCDEFGHJKMNPQRSTVWXYZ0',
  ' 01JABCDEFGHJKMNPQRSTVWXYZ0 ',
  'k'.repeat(44),
  'pager@oncall.example',
];

const environments: Record<string, string | undefined>[] = [
  ...NAMES.flatMap((name) => VALUES.map((value) => ({ [name]: value }))),
  { SLACK_CLIENT_ID: 'id', SLACK_CLIENT_SECRET: 'secret', SLACK_SIGNING_SECRET: 'signing' },
  { VAPID_PUBLIC_KEY: 'public' },
  { CANARY_TEAM_ID: '01JABCDEFGHJKMNPQRSTVWXYZ0', CANARY_ACCOUNT_ID: '01JABCDEFGHJKMNPQRSTVWXYZ1' },
  { TIME_SCALE: 'x', OUTBOX: 'nowhere', JWT_TTL_SECONDS: '-5' },
];

const interaction = {
  kind: 'slack_interaction',
  account_id: 'acc',
  slack_user_id: 'U1',
  key: 'k',
  action_id: 'acknowledge',
  value: 'alt',
  direct_message: true,
};
const command = { kind: 'slack_command', account_id: 'acc', slack_user_id: 'U1', text: 'who', key: 'k', sent_at: 1 };
const messages = [
  'not json',
  '{}',
  JSON.stringify(interaction),
  JSON.stringify({ ...interaction, response_url: 'https://hooks.slack.example/1', delivery: 'd', extra: 1 }),
  JSON.stringify({ ...interaction, direct_message: 'yes' }),
  JSON.stringify({ ...interaction, kind: 'slack_command' }),
  JSON.stringify(command),
  JSON.stringify({ ...command, sent_at: '1' }),
  JSON.stringify({ ...command, response_url: 7 }),
];

const HARNESS = `
import { config } from ${from('lib/config.ts')};
import { environmentChanged } from ${from('lib/dependencies.ts')};
import { parseSlackCommandMessage, parseSlackInteractionMessage } from ${from('lib/slack/interaction-queue.ts')};
import { signResponseToken, verifyResponseToken } from ${from('lib/notify/content/response-token.ts')};
const { environments, messages } = JSON.parse(process.env.CASES);
const secret = 'a response secret of some length';
const claims = { accountId: 'acc', alertId: 'alt', workflowId: 'wkf', accountUserId: 'acu', action: 'acknowledge' };
const forge = (payload) => 'v1.' + Buffer.from(JSON.stringify(payload)).toString('base64url') + '.x';
function run() {
  const out = [];
  for (const variables of environments) {
    for (const name of Object.keys(process.env)) if (/^[A-Z_]+$/.test(name) && !['PATH', 'HOME'].includes(name)) delete process.env[name];
    process.env.TABLE_NAME = 'oncall';
    for (const [name, value] of Object.entries(variables)) if (value === undefined) delete process.env[name]; else process.env[name] = value;
    environmentChanged();
    try { out.push(['config', config()]); } catch (error) { out.push(['refused', error.message]); }
  }
  for (const body of messages) out.push(['message', parseSlackInteractionMessage(body), parseSlackCommandMessage(body)]);
  const token = signResponseToken(claims, secret, 1000);
  out.push(['token', verifyResponseToken(token, secret, 2000), verifyResponseToken(token, secret, 1000 + 86400000)]);
  out.push(['forged', verifyResponseToken(forge({ c: 'acc' }), secret, 0), verifyResponseToken(token.replace('v1.', 'v1.x'), secret, 0)]);
  return out;
}
const alone = run();
await import('zod');
console.log(JSON.stringify({ alone, besideClassic: run() }));
`;

const dir = mkdtempSync(path.join(tmpdir(), 'zod-mini-bundle-'));
const outcomes: Record<'package' | 'apart', { alone: unknown[][]; besideClassic: unknown[][] }> = {} as never;
const inputs: Record<'package' | 'apart', string[]> = {} as never;

beforeAll(async () => {
  writeFileSync(path.join(dir, 'harness.mjs'), HARNESS);
  for (const side of ['package', 'apart'] as const) {
    const result = await build({
      ...ESBUILD_OPTIONS,
      alias: side === 'apart' ? { ...ESBUILD_OPTIONS.alias, 'zod/mini': zodMiniOnItsOwn() } : ESBUILD_OPTIONS.alias,
      sourcemap: false,
      absWorkingDir: root,
      nodePaths: [path.join(root, 'node_modules')],
      entryPoints: [path.join(dir, 'harness.mjs')],
      outfile: path.join(dir, `${side}.mjs`),
      metafile: true,
      logLevel: 'silent',
    });
    inputs[side] = Object.keys(result.metafile.inputs);
    const printed = execFileSync(process.execPath, [path.join(dir, `${side}.mjs`)], {
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'us-east-1',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        CASES: JSON.stringify({ environments, messages }),
      },
      maxBuffer: 64 * 1024 * 1024,
    });
    outcomes[side] = JSON.parse(printed.toString());
  }
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('zod/mini built apart', () => {
  it('is one module of its own: the bundle holds no module of the zod package but what the harness loads lazily', () => {
    expect(inputs.apart).toContain(path.relative(root, zodMiniOnItsOwn()));
    expect(inputs.apart.filter((input) => input.includes('node_modules/zod/v4/mini/'))).toEqual([]);
    expect(inputs.package.filter((input) => input.includes('node_modules/zod/v4/mini/')).length).toBeGreaterThan(0);
  });

  it('reads every environment as the package does: the same settings, the same refusals naming the same variables', () => {
    const configs = outcomes.package.alone.filter(([kind]) => kind === 'config').length;
    const refusals = outcomes.package.alone.filter(([kind]) => kind === 'refused').length;
    // Both kinds of answer are there, so the comparison compares something.
    expect(configs).toBeGreaterThan(50);
    expect(refusals).toBeGreaterThan(50);
    expect(outcomes.apart.alone).toEqual(outcomes.package.alone);
  });

  it('reads the Slack work messages and the response links as the package does', () => {
    const rest = (side: 'package' | 'apart') => outcomes[side].alone.filter(([kind]) => kind !== 'config' && kind !== 'refused');
    expect(rest('package').filter(([kind, read]) => kind === 'message' && read !== null).length).toBeGreaterThan(0);
    expect(rest('apart')).toEqual(rest('package'));
  });

  it('answers the same once zod’s classic API is loaded beside it', () => {
    expect(outcomes.apart.besideClassic).toEqual(outcomes.package.besideClassic);
    expect(outcomes.apart.besideClassic).toEqual(outcomes.apart.alone);
  });
});
