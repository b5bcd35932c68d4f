// Benchmark of failover (docs/api.md#failover) on the local runtime (one process: API, emulators,
// workers): every page goes to a person whose only channel is SMS, and End User Messaging (the AWS
// stand-in of the tests, reached through the real SDK client) refuses every SMS; the page fails
// over to the person's next channel, a call, which it accepts. Measured per page: from the SMS
// refusal to the call's request at the provider, p50/p99, over PAGES alerts paced at RATE per
// second (each to a person of their own, so storm protection never holds one back); beside it, as
// a yardstick under the same load, the time to page (alert created → the SMS at the provider).
// FAILOVER_PAGES and FAILOVER_RATE change the defaults.
import { randomBytes } from 'node:crypto';
import { startRuntime } from '../infra/local/runtime';
import { startAwsMessagingStub } from '../test/support/aws-messaging-stub';
import { KeepAliveClient, percentile, pool, round, runWhenMain } from './support';

const PAGES = Number(process.env.FAILOVER_PAGES ?? 300);
const RATE = Number(process.env.FAILOVER_RATE ?? 20);

export async function benchFailover(): Promise<Record<string, number | string>> {
  const aws = await startAwsMessagingStub();
  aws.refuse('SendTextMessage', { type: 'ValidationException', message: 'the destination cannot receive SMS (benchmark)' });
  const apiKey = `bench-key-${randomBytes(16).toString('hex')}`;
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: `oncall-bench-${randomBytes(4).toString('hex')}`,
    scheduleIntervalMs: 3_600_000,
    env: {
      OUTBOX: 'none',
      LOG_LEVEL: 'error',
      AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2: aws.url,
      SMS_ORIGINATION_IDENTITY: '+18005550199',
      VOICE_ORIGINATION_IDENTITY: '+18005550198',
    },
    bootstrap: { email: 'bench@example.com', password: 'bench password 123', apiKey },
  });
  const client = new KeepAliveClient(runtime.url, { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
  const post = async (path: string, body: unknown) => {
    const res = await client.request('POST', path, JSON.stringify(body));
    if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as { id: string };
  };
  try {
    const phones = Array.from({ length: PAGES }, (_, i) => `+1415555${String(1000 + i).padStart(4, '0')}`);
    const people = await pool(PAGES, 8, (i) =>
      post('/api/v4/account_users', {
        user_attributes: {
          name: `Failover ${i}`,
          emails_attributes: [{ email: `failover-${i}-${randomBytes(3).toString('hex')}@example.com` }],
          phones_attributes: [{ phone: phones[i] }],
          notify_sms: true,
          notify_push: false,
          notify_email: false,
        },
      }),
    );
    const started = Date.now();
    const createdAt = new Map<string, number>();
    await pool(PAGES, 16, async (i) => {
      const due = started + (i * 1000) / RATE;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      const posted = Date.now();
      await post('/api/v4/alerts', { title: `Failover ${i}`, urgency: 'high', destination_account_user_ids: [people[i].id] });
      createdAt.set(phones[i], posted);
    });
    const until = Date.now() + 300_000;
    const calls = () => aws.calls.filter((c) => c.operation === 'SendVoiceMessage');
    while (calls().length < PAGES && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));

    const refusedAt = new Map<string, number>();
    for (const call of aws.calls)
      if (call.operation === 'SendTextMessage') refusedAt.set(String(call.body.DestinationPhoneNumber), call.at);
    const latencies = calls()
      .map((call) => call.at - (refusedAt.get(String(call.body.DestinationPhoneNumber)) ?? NaN))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const toPage = [...refusedAt]
      .map(([phone, at]) => at - (createdAt.get(phone) ?? NaN))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const called = new Set(calls().map((c) => String(c.body.DestinationPhoneNumber))).size;
    return {
      'failover.pages': PAGES,
      'failover.rate_per_s': RATE,
      'failover.sms_refused': refusedAt.size,
      'failover.calls': calls().length,
      'failover.pages_never_called': PAGES - called,
      'failover.calls_twice_to_one_page': calls().length - called,
      'failover.sms_refused_to_call_p50_ms': round(percentile(latencies, 50), 1),
      'failover.sms_refused_to_call_p99_ms': round(percentile(latencies, 99), 1),
      'failover.sms_refused_to_call_max_ms': round(latencies.at(-1) ?? NaN, 1),
      'failover.yardstick_alert_to_sms_p50_ms': round(percentile(toPage, 50), 1),
      'failover.yardstick_alert_to_sms_p99_ms': round(percentile(toPage, 99), 1),
    };
  } finally {
    client.close();
    await runtime.stop();
    await aws.close();
    delete process.env.AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2;
  }
}

runWhenMain(import.meta.url, benchFailover);
