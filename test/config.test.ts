// The configuration read from the environment (lib/config.ts): every kind of setting's default, its
// coercion, what a blank value means, and a refusal that names the variable, for each kind.
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '../lib/config';
import { CONFIG_VARIABLES } from './support/config-variables';
import { changeEnvironment } from './support/dependencies';

const undos: (() => void)[] = [];
afterEach(() => {
  while (undos.length > 0) undos.pop()!();
});

/** The configuration's variables all unset but TABLE_NAME, and those a test gives. */
function given(variables: Record<string, string | undefined>): void {
  undos.push(
    changeEnvironment({ ...Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, undefined])), TABLE_NAME: 'oncall', ...variables }),
  );
}

const refusal = (variables: Record<string, string | undefined>) => {
  given(variables);
  try {
    config();
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

const ULID = '01JABCDEFGHJKMNPQRSTVWXYZ0';

describe('configuration', () => {
  it('gives every setting its default', () => {
    given({});
    expect(config()).toMatchObject({
      TABLE_NAME: 'oncall',
      JWT_TTL_SECONDS: 43_200,
      AUTH_CACHE_SECONDS: 10,
      SIGNUP_ENABLED: false,
      OUTBOX: 'none',
      LOG_LEVEL: 'info',
      INGEST_RATE_LIMIT_PER_MINUTE: 600,
      INGEST_RATE_LIMIT_BURST: 2000,
      API_RATE_LIMIT_PER_MINUTE: 1200,
      API_RATE_LIMIT_BURST: 200,
      ACCOUNT_RATE_LIMIT_PER_MINUTE: 6000,
      TIME_SCALE: 1,
      SNS_SIGNATURE_REQUIRED: false,
      PASSWORD_RESET_TTL_SECONDS: 3600,
      PASSWORD_RESET_PER_EMAIL: 8,
      PASSWORD_RESET_PER_IP: 100,
      LIST_READ_BUDGET: 10_000,
      VOICE_ID: 'JOANNA',
      SLACK_API_URL: 'https://slack.com/api/',
    });
    const settings = config() as Record<string, unknown>;
    for (const name of [
      'INGEST_QUEUE_URL',
      'JWT_SECRET',
      'PUBLIC_BASE_URL',
      'SES_FROM_ADDRESS',
      'DELIVERY_TOPIC_ARN',
      'CANARY_TEAM_ID',
      'SECRETS_KEY',
    ])
      expect(settings[name], name).toBeUndefined();
  });

  it('reads numbers and switches from their text', () => {
    given({
      SIGNUP_ENABLED: '1',
      SNS_SIGNATURE_REQUIRED: 'true',
      TIME_SCALE: '60',
      API_RATE_LIMIT_PER_MINUTE: '50',
      AUTH_CACHE_SECONDS: '0',
    });
    expect(config()).toMatchObject({
      SIGNUP_ENABLED: true,
      SNS_SIGNATURE_REQUIRED: true,
      TIME_SCALE: 60,
      API_RATE_LIMIT_PER_MINUTE: 50,
      AUTH_CACHE_SECONDS: 0,
    });
    given({ SIGNUP_ENABLED: 'false', SNS_SIGNATURE_REQUIRED: '', TIME_SCALE: '0.5', OUTBOX: 'memory', LOG_LEVEL: 'silent' });
    expect(config()).toMatchObject({
      SIGNUP_ENABLED: false,
      SNS_SIGNATURE_REQUIRED: false,
      TIME_SCALE: 0.5,
      OUTBOX: 'memory',
      LOG_LEVEL: 'silent',
    });
  });

  it('takes a blank optional setting for unset, and trims text', () => {
    given({
      SES_FROM_ADDRESS: '  On-call <oncall@example.com> ',
      PUBLIC_BASE_URL: '',
      SLACK_API_URL: '',
      DELIVERY_TOPIC_ARN: '',
      CANARY_TEAM_ID: ' ',
      CANARY_ACCOUNT_ID: '',
      SECRETS_KEY: '',
      INGEST_QUEUE_URL: '',
    });
    const settings = config();
    expect(settings.SES_FROM_ADDRESS).toBe('On-call <oncall@example.com>');
    expect(settings.PUBLIC_BASE_URL).toBeUndefined();
    expect(settings.SLACK_API_URL).toBe('https://slack.com/api/');
    expect(settings.DELIVERY_TOPIC_ARN).toBeUndefined();
    expect(settings.CANARY_TEAM_ID).toBeUndefined();
    expect(settings.SECRETS_KEY).toBeUndefined();
    expect(settings.INGEST_QUEUE_URL).toBe('');
    given({ SES_FROM_ADDRESS: '   ' });
    expect(config().SES_FROM_ADDRESS).toBeUndefined();
  });

  it('accepts well-formed addresses, ids and secrets', () => {
    given({
      PUBLIC_BASE_URL: 'https://oncall.example.com',
      CONSOLE_URL: 'http://localhost:3000',
      WEB_PUSH_SUBJECT: 'mailto:ops@example.com',
      DELIVERY_TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:delivery-events',
      SMS_INBOUND_TOPIC_ARN: 'arn:aws-us-gov:sns:us-gov-west-1:123456789012:inbound_sms',
      CANARY_TEAM_ID: ` ${ULID} `,
      CANARY_ACCOUNT_ID: ULID,
      JWT_SECRET: 'x'.repeat(16),
      RESPONSE_TOKEN_SECRET: 'r'.repeat(32),
      VOICE_ID: 'MATTHEW',
      SLACK_API_URL: 'http://127.0.0.1:4010/api/',
    });
    expect(config()).toMatchObject({
      PUBLIC_BASE_URL: 'https://oncall.example.com',
      CONSOLE_URL: 'http://localhost:3000',
      WEB_PUSH_SUBJECT: 'mailto:ops@example.com',
      DELIVERY_TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:delivery-events',
      CANARY_TEAM_ID: ULID,
      VOICE_ID: 'MATTHEW',
      SLACK_API_URL: 'http://127.0.0.1:4010/api/',
    });
  });

  // Messages pinned where the case is about the wording; test/config-reference.test.ts holds every one.
  const named = (name: string) => new RegExp(`^Invalid configuration: ${name}: [^;]+$`);
  it.each([
    [{ TABLE_NAME: undefined }, named('TABLE_NAME')],
    [{ TABLE_NAME: 'ab' }, named('TABLE_NAME')],
    [{ API_RATE_LIMIT_PER_MINUTE: '0' }, 'API_RATE_LIMIT_PER_MINUTE: a whole number from 1 to 10000000'],
    [{ API_RATE_LIMIT_BURST: '2.5' }, 'API_RATE_LIMIT_BURST: a whole number from 1 to 10000000'],
    [{ ACCOUNT_RATE_LIMIT_PER_MINUTE: 'many' }, 'ACCOUNT_RATE_LIMIT_PER_MINUTE: a whole number from 1 to 10000000'],
    [{ API_RATE_LIMIT_PER_MINUTE: '10000001' }, 'API_RATE_LIMIT_PER_MINUTE: a whole number from 1 to 10000000'],
    [{ JWT_TTL_SECONDS: '-5' }, named('JWT_TTL_SECONDS')],
    [{ JWT_TTL_SECONDS: '1.5' }, named('JWT_TTL_SECONDS')],
    [{ PASSWORD_RESET_TTL_SECONDS: '9007199254740993' }, 'PASSWORD_RESET_TTL_SECONDS: a whole number above 0'],
    [{ INGEST_RATE_LIMIT_BURST: '1000001' }, named('INGEST_RATE_LIMIT_BURST')],
    [{ AUTH_CACHE_SECONDS: '-1' }, named('AUTH_CACHE_SECONDS')],
    [{ TIME_SCALE: '0' }, named('TIME_SCALE')],
    [{ TIME_SCALE: 'fast' }, named('TIME_SCALE')],
    [{ LIST_READ_BUDGET: 'x' }, named('LIST_READ_BUDGET')],
    [{ OUTBOX: 'smtp' }, named('OUTBOX')],
    [{ LOG_LEVEL: 'verbose' }, named('LOG_LEVEL')],
    [{ SIGNUP_ENABLED: 'yes' }, named('SIGNUP_ENABLED')],
    [{ PUBLIC_BASE_URL: 'ftp://example.com' }, named('PUBLIC_BASE_URL')],
    [{ CONSOLE_URL: 'not a url' }, named('CONSOLE_URL')],
    [{ WEB_PUSH_SUBJECT: 'http://example.com' }, named('WEB_PUSH_SUBJECT')],
    [{ SLACK_API_URL: 'ws://example.com/api/' }, named('SLACK_API_URL')],
    [{ DELIVERY_TOPIC_ARN: 'delivery-events' }, 'DELIVERY_TOPIC_ARN: an SNS topic ARN'],
    [{ CANARY_TEAM_ID: 'team-1', CANARY_ACCOUNT_ID: ULID }, 'CANARY_TEAM_ID: a ULID'],
    [{ VOICE_ID: 'Joanna' }, 'VOICE_ID: an End User Messaging VoiceId such as JOANNA'],
    [{ JWT_SECRET: 'short' }, named('JWT_SECRET')],
    [{ RESPONSE_TOKEN_SECRET: 'r'.repeat(31) }, named('RESPONSE_TOKEN_SECRET')],
    [{ SECRETS_KEY: 'short' }, 'SECRETS_KEY: at least 32 characters'],
    [{ TIME_SCALE: '0', OUTBOX: 'smtp' }, /^Invalid configuration: OUTBOX: [^;]+; TIME_SCALE: [^;]+$/],
    [{ VAPID_PUBLIC_KEY: 'public' }, 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: give both or neither'],
    [
      { SLACK_CLIENT_ID: 'id', SLACK_SIGNING_SECRET: 'secret' },
      'SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET: give all three or none',
    ],
    [{ CANARY_TEAM_ID: ULID }, 'CANARY_TEAM_ID and CANARY_ACCOUNT_ID: give both or neither'],
  ] as [Record<string, string | undefined>, string | RegExp][])('refuses %j, naming the variable', (variables, message) => {
    const answer = refusal(variables);
    if (typeof message === 'string') expect(answer).toBe(`Invalid configuration: ${message}`);
    else expect(answer).toMatch(message);
  });

  it('reads the environment once, and again after it changes', () => {
    given({ TIME_SCALE: '2' });
    const first = config();
    expect(config()).toBe(first);
    given({ TIME_SCALE: '3' });
    expect(config().TIME_SCALE).toBe(3);
  });
});
