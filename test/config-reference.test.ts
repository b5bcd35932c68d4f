// lib/config.ts validates the environment by hand (readConfig, which config() applies to the
// process's environment); until issue 21 it did so with zod/mini, whose schema is kept as the
// reference (test/support/config-reference.ts). Every variable with values of
// every shape, then thousands of environments of several variables drawn at random (seeded), must be
// read to the same settings or refused with the same message, variable for variable and in order.
import { describe, expect, it } from 'vitest';
import { readConfig } from '../lib/config';
import { CONFIG_VARIABLES } from './support/config-variables';
import { referenceConfig } from './support/config-reference';

const NAMES = [...CONFIG_VARIABLES, 'TABLE_NAME', 'ROUTING_QUEUE_URL', 'ESCALATION_QUEUE_URL'];

const VALUES = [
  ...[undefined, '', ' ', '   ', '\t', '\n'],
  // Numbers, in every form Number() reads or refuses.
  ...['0', '1', '-1', '-0', '0.0', '1.0', '+5', ' 7 ', '7\n', '2.5', '1e3', '1e7', '1e8', '5e-324', '0x1F', '0b11', '0o7', '1_000'],
  ...[
    '10000000',
    '10000001',
    '1000000',
    '1000001',
    '9007199254740991',
    '9007199254740992',
    '9007199254740993',
    'NaN',
    'Infinity',
    '-Infinity',
  ],
  // Switches and choices.
  ...['true', 'false', 'TRUE', 'True', 'yes', 'on', 'console', 'log', 'memory', 'none', 'debug', 'info', 'warn', 'error', 'silent', 'INFO'],
  // URLs: schemes, the `://` http needs, whitespace around and inside, hosts of every kind.
  ...[
    'https://oncall.example/',
    'http://localhost:3000',
    'HTTPS://ONCALL.EXAMPLE',
    'http:oncall.example',
    'https:/oncall.example',
    'https://',
  ],
  ...[
    'http://',
    'ftp://x',
    'ws://example.com/api/',
    'mailto:ops@example.com',
    ' mailto:ops@example.com ',
    'mailto:',
    'MAILTO:ops@example.com',
  ],
  ...[
    ' https://oncall.example ',
    '\thttps://oncall.example/\n',
    'https://oncall.example/a\tb',
    'https://a b.example',
    'https://[::1]:8080/p?q=1#f',
  ],
  ...[
    'https://user:pass@oncall.example',
    'javascript:alert(1)',
    'https://xn--nxasmq6b.example',
    'https://ünï.example/ä',
    '//oncall.example',
    'oncall.example',
  ],
  // ARNs, ids, voices, secrets, text.
  ...[
    'arn:aws:sns:us-east-1:123456789012:delivery-events',
    'arn:aws-cn:sns:cn-north-1:123456789012:t',
    'arn:aws:sns:us-east-1:12345678901:t',
  ],
  ...[' arn:aws:sns:us-east-1:123456789012:t', `arn:aws:sns:us-east-1:123456789012:${'t'.repeat(257)}`, 'delivery-events'],
  ...[
    '01JABCDEFGHJKMNPQRSTVWXYZ0',
    ' 01JABCDEFGHJKMNPQRSTVWXYZ0 ',
    '01jabcdefghjkmnpqrstvwxyz0',
    '01JABCDEFGHJKMNPQRSTVWXYZI',
    '01JABCDEFGHJKMNPQRSTVWXYZ',
  ],
  ...[
    'JOANNA',
    'MATT_HEW',
    'Joanna',
    'JOANNA ',
    'k'.repeat(15),
    'k'.repeat(16),
    'k'.repeat(31),
    'k'.repeat(32),
    ' '.repeat(40),
    `  ${'s'.repeat(32)}  `,
  ],
  ...['ab', 'abc', 'oncall', 'pager@oncall.example', 'On-call <oncall@example.com>', '  padded  ', 'ünïcödé', '🚨', 'a\u0000b'],
];

/** A generator of numbers in [0, 1) from a seed (mulberry32): the same environments every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seeded(21);
const pick = <T>(from: readonly T[]): T => from[Math.floor(random() * from.length)];

const environments: Record<string, string | undefined>[] = [
  ...NAMES.flatMap((name) => VALUES.map((value) => ({ [name]: value }))),
  ...Array.from({ length: 5000 }, () =>
    Object.fromEntries(Array.from({ length: 2 + Math.floor(random() * 6) }, () => [pick(NAMES), pick(VALUES)])),
  ),
];

/** The pairs lib/config.ts checks once every variable is read (the reference leaves them out). */
function pairBroken(read: Record<string, unknown>): boolean {
  const slack = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_SIGNING_SECRET'].filter((name) => read[name]).length;
  return (
    Boolean(read.VAPID_PUBLIC_KEY) !== Boolean(read.VAPID_PRIVATE_KEY) ||
    (slack !== 0 && slack !== 3) ||
    Boolean(read.CANARY_TEAM_ID) !== Boolean(read.CANARY_ACCOUNT_ID)
  );
}

/** JSON's view of a reading: a setting read as unset is absent either way. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('the configuration read by hand, against its former zod/mini schema', () => {
  it(`reads ${environments.length} environments as the schema did, and refuses the same with the same message`, () => {
    const differences: unknown[] = [];
    let refusals = 0;
    for (const variables of environments) {
      const env = { TABLE_NAME: 'oncall', ...variables };
      let answer: { read: unknown } | { refused: string };
      try {
        answer = { read: plain(readConfig(env)) };
      } catch (error) {
        answer = { refused: (error as Error).message };
      }
      const expected = referenceConfig(env);
      if ('refused' in expected) refusals++;
      const same =
        'refused' in expected
          ? 'refused' in answer && answer.refused === expected.refused
          : pairBroken(expected.read)
            ? 'refused' in answer && /give (both or neither|all three or none)$/.test(answer.refused)
            : 'read' in answer && JSON.stringify(answer.read) === JSON.stringify(plain(expected.read));
      if (!same) differences.push({ variables, expected, answer });
    }
    expect(differences.slice(0, 5)).toEqual([]);
    // Both kinds of answer were met plenty of times.
    expect(refusals).toBeGreaterThan(environments.length / 4);
    expect(environments.length - refusals).toBeGreaterThan(environments.length / 10);
  });
});
