// Every sender's adapter through HTTP at least once, with the senders' own bodies
// (test/fixtures/senders): create, then the sender's acknowledge/resolve for the same alert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIncomingLog, type IncomingLog } from '../../lib/integrations/ingest/incoming-log';
import { useService, type TestService } from '../support/runtime';
import { alertById, createIntegration, eventually, postRaw, senderFixture } from '../integrations/support';
import { signSns, startSnsStub, type SnsStub } from '../integrations/sns-support';

let service: TestService;
let sns: SnsStub;
useService(async (started) => {
  service = started;
});
// SNS messages are verified before they act: sign the fixtures with the test key and serve its
// certificate from a stand-in for the SNS host.
beforeAll(async () => {
  sns = await startSnsStub();
});
afterAll(async () => {
  await sns?.close();
});

/** A sender's body as it is posted: SNS envelopes signed (their invented signatures would not verify). */
function body(fixture: string): string {
  const text = senderFixture(fixture);
  return fixture.startsWith('aws-cloudwatch/') ? JSON.stringify(signSns(JSON.parse(text) as Record<string, unknown>)) : text;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const SNS_TYPE = { 'content-type': 'text/plain; charset=UTF-8' };
const NONE = {};

interface Step {
  fixture: string;
  headers: Record<string, string>;
  /** The alert after this request. */
  expect: Record<string, unknown>;
}

interface Sender {
  type: string;
  steps: Step[];
}

const SENDERS: Sender[] = [
  {
    type: 'webhook',
    steps: [
      {
        fixture: 'webhook/create.json',
        headers: JSON_TYPE,
        expect: { title: 'Example Incident Title', status: 'open', tag_list: ['a', 'b', 'c'] },
      },
      { fixture: 'webhook/acknowledge.json', headers: JSON_TYPE, expect: { status: 'acknowledged' } },
      { fixture: 'webhook/resolve.json', headers: JSON_TYPE, expect: { status: 'resolved' } },
    ],
  },
  {
    type: 'prometheus',
    steps: [
      {
        fixture: 'prometheus/alertmanager-firing.json',
        headers: JSON_TYPE,
        expect: { status: 'open', urgency: 'critical', dedup_count: 1 },
      },
      {
        fixture: 'prometheus/alertmanager-firing-fewer-common-labels.json',
        headers: JSON_TYPE,
        expect: { status: 'open', dedup_count: 2 },
      },
      { fixture: 'prometheus/alertmanager-resolved.json', headers: JSON_TYPE, expect: { status: 'resolved' } },
    ],
  },
  {
    type: 'grafana',
    steps: [
      { fixture: 'grafana/unified-firing.json', headers: JSON_TYPE, expect: { status: 'open' } },
      { fixture: 'grafana/unified-resolved.json', headers: JSON_TYPE, expect: { status: 'resolved' } },
    ],
  },
  {
    type: 'aws_cloudwatch',
    steps: [
      { fixture: 'aws-cloudwatch/sns-notification-alarm.json', headers: SNS_TYPE, expect: { status: 'open' } },
      { fixture: 'aws-cloudwatch/sns-notification-ok.json', headers: SNS_TYPE, expect: { status: 'resolved' } },
    ],
  },
  {
    type: 'datadog',
    steps: [
      { fixture: 'datadog/template-triggered.form.txt', headers: FORM_TYPE, expect: { status: 'open' } },
      { fixture: 'datadog/template-recovered.json', headers: JSON_TYPE, expect: { status: 'resolved' } },
    ],
  },
  {
    type: 'pagerduty_events_v2',
    steps: [
      {
        fixture: 'pagerduty/trigger.json',
        headers: JSON_TYPE,
        expect: { status: 'open', urgency: 'critical', title: 'DISK at 99% on machine prod-datapipe03.example.com' },
      },
      { fixture: 'pagerduty/acknowledge.json', headers: JSON_TYPE, expect: { status: 'acknowledged' } },
      { fixture: 'pagerduty/resolve.json', headers: JSON_TYPE, expect: { status: 'resolved' } },
    ],
  },
  {
    type: 'uptime_robot',
    steps: [
      { fixture: 'uptime-robot/down.form.txt', headers: FORM_TYPE, expect: { status: 'open' } },
      { fixture: 'uptime-robot/up.form.txt', headers: FORM_TYPE, expect: { status: 'resolved' } },
    ],
  },
  {
    type: 'healthchecks',
    steps: [
      // Healthchecks sends no Content-Type unless the user adds one.
      {
        fixture: 'healthchecks/webhook-down.json',
        headers: NONE,
        expect: { status: 'open', title: expect.stringContaining('Nightly backup') },
      },
      { fixture: 'healthchecks/webhook-up.json', headers: NONE, expect: { status: 'resolved' } },
    ],
  },
];

async function processed(logPrefixId: string, accountId: string): Promise<IncomingLog> {
  return eventually(
    async () => {
      const log = await getIncomingLog(accountId, logPrefixId.replace(/^log_/, ''));
      return log && log.status !== 'pending' ? log : undefined;
    },
    15_000,
    `log ${logPrefixId}`,
  );
}

describe('senders through HTTP', () => {
  it.each(SENDERS.map((s) => [s.type, s] as const))('%s: its create and its follow-ups act on one alert', async (_type, sender) => {
    const integration = await createIntegration(service.admin, { type: sender.type, urgency: 'medium' });
    let alertId: string | undefined;
    for (const step of sender.steps) {
      const res = await postRaw(service.url, `/integration/${integration.prefix_id}`, body(step.fixture), step.headers);
      expect(res.status, step.fixture).toBe(202);
      const log = await processed(res.body.log_id, integration.account_id as string);
      expect(log.status, `${step.fixture}: ${log.reason}`).toBe('processed');
      const touched = log.data.result?.alert_ids ?? [];
      expect(touched, step.fixture).toHaveLength(1);
      alertId ??= touched[0];
      expect(touched[0], step.fixture).toBe(alertId);
      const alert = await alertById(service.admin, alertId);
      expect(alert, step.fixture).toMatchObject({ ...step.expect, source_type: 'Integration', source_id: integration.id });
    }
  });

  it('a CloudWatch alarm in INSUFFICIENT_DATA is logged as ignored', async () => {
    const integration = await createIntegration(service.admin, { type: 'aws_cloudwatch' });
    const res = await postRaw(
      service.url,
      `/integration/${integration.prefix_id}`,
      body('aws-cloudwatch/sns-notification-insufficient-data.json'),
      SNS_TYPE,
    );
    const log = await processed(res.body.log_id, integration.account_id as string);
    expect(log.status).toBe('ignored');
  });
});
