// Benchmark of the SIP media function (issue 24) on the local runtime: the Chime SDK waits a few
// seconds for its answer to each event, so each event's handling time is what matters. The function
// module is invoked in this process as the SIP media application would invoke it, with the events of
// AWS's documented sequences (test/voice/pstn-events.ts), while the runtime's pollers run the work
// the events cause (escalation, routing, webhooks) beside it. Calls run 4 at a time.
//   pages you can answer: CALL_ANSWERED (the delivered receipt), key 3 (a repeat: no write), key 1
//     (the acknowledgement: the heaviest), HANGUP; PAGE_CALLS alerts, each to a person of its own
//     (storm protection places one call a minute per person).
//   live calls: NEW_INBOUND_CALL (the alert opened, the on-call people of two layers read), the
//     bridge's no answer (next layer), the answer (acknowledge), HANGUP (resolve); CALLS calls.
// Figures: p50 / p99 / max ms per event type. Target: p99 well under Chime's few seconds (≤ 1 s here).
import { randomBytes } from 'node:crypto';
import { startRuntime } from '../infra/local/runtime';
import { startAwsMessagingStub } from '../test/support/aws-messaging-stub';
import type { PstnResponse } from '../lib/voice-calls/pstn-events';
import { ReplayedCall, said } from '../test/voice/pstn-events';
import * as z from 'zod';
import { KeepAliveClient, percentile, pool, round, runWhenMain, timeOnce, type Figures } from './support';

const CALLS = 100;
const PAGE_CALLS = 40;
const CONCURRENCY = 4;
const FROM = '+12065550100';

const created = z.object({ id: z.string() });
const createdTeam = z.object({ id: z.string(), schedule_id: z.string(), escalation_policy_id: z.string() });
const accountUser = z.object({ user: z.object({ phones: z.array(z.object({ phone: z.string() })) }) });

const stats = (prefix: string, values: number[]): Figures => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    [`${prefix}_p50_ms`]: round(percentile(sorted, 50), 1),
    [`${prefix}_p99_ms`]: round(percentile(sorted, 99), 1),
    [`${prefix}_max_ms`]: round(sorted[sorted.length - 1] ?? NaN, 1),
  };
};

export async function benchVoice(): Promise<Figures> {
  const aws = await startAwsMessagingStub();
  const apiKey = `bench-key-${randomBytes(16).toString('hex')}`;
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: `oncall-bench-${randomBytes(4).toString('hex')}`,
    scheduleIntervalMs: 3_600_000,
    env: {
      OUTBOX: 'memory',
      LOG_LEVEL: 'error',
      AWS_ENDPOINT_URL_CHIME_SDK_VOICE: aws.url,
      VOICE_SIP_MEDIA_APPLICATION_ID: 'bench-sma',
      VOICE_FROM_NUMBER: FROM,
      VOICEMAIL_BUCKET: 'bench-voicemail',
    },
    bootstrap: { email: 'bench@example.com', password: 'bench password 123', apiKey },
  });
  const client = new KeepAliveClient(runtime.url, { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
  const call = async (method: string, path: string, body?: unknown): Promise<string> => {
    const res = await client.request(method, path, body === undefined ? undefined : JSON.stringify(body));
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 300)}`);
    return res.body;
  };
  const read = <S extends z.ZodType>(schema: S, body: string): z.infer<S> => schema.parse(JSON.parse(body));
  const times: Record<string, number[]> = {};
  const timed = async (name: string, fn: () => Promise<unknown>) => (times[name] ??= []).push(await timeOnce(fn));
  // What a call uses that AWS charges by (README "What it costs"): the SIP media function's invocations
  // and the characters Amazon Polly speaks, summed per scenario over its calls.
  const usage = { page: { invocations: 0, characters: 0 }, live: { invocations: 0, characters: 0 } };
  const used = async (scenario: keyof typeof usage, response: Promise<PstnResponse>): Promise<PstnResponse> => {
    const answer = await response;
    usage[scenario].invocations += 1;
    usage[scenario].characters += said(answer).reduce((sum, action) => sum + (action.text?.length ?? 0), 0);
    return answer;
  };
  try {
    const people = await Promise.all(
      [1, 2].map(async (n) => {
        const phone = `+1415555${String(2000 + n)}`;
        const { id } = read(
          created,
          await call('POST', '/api/v4/account_users', {
            user_attributes: {
              name: `Voice ${n}`,
              notify_push: false,
              notify_email: false,
              notify_voice: true,
              emails_attributes: [{ email: `voice-${n}-${randomBytes(3).toString('hex')}@example.com` }],
              phones_attributes: [{ phone }],
            },
          }),
        );
        return { id, phone: read(accountUser, await call('GET', `/api/v4/account_users/${id}`)).user.phones[0].phone };
      }),
    );
    const team = read(
      createdTeam,
      await call('POST', '/api/v4/teams', {
        name: 'Bench',
        member_account_user_ids: people.map((p) => p.id),
        admin_account_user_ids: [people[0].id],
      }),
    );
    await call('PUT', `/api/v4/escalation_policies/${team.escalation_policy_id}`, {
      escalation_layers: people.map((_, index) => ({ layer: index + 1, timeout: 30, timeout_unit: 'minutes' })),
    });
    for (const [index, p] of people.entries()) {
      await call('POST', '/api/v4/events', {
        schedule_ids: [team.schedule_id],
        account_user_ids: [p.id],
        layer: index + 1,
        start_datetime: new Date(Date.now() - 3_600_000).toISOString(),
        end_datetime: new Date(Date.now() + 86_400_000).toISOString(),
        time_zone: 'UTC',
      });
    }

    // Pages you can answer: one alert to a person of its own each, its call placed through the stand-in.
    const paged = await pool(PAGE_CALLS, 8, async (i) =>
      read(
        created,
        await call('POST', '/api/v4/account_users', {
          user_attributes: {
            name: `Paged ${i}`,
            notify_push: false,
            notify_email: false,
            notify_voice: true,
            emails_attributes: [{ email: `paged-${i}-${randomBytes(3).toString('hex')}@example.com` }],
            phones_attributes: [{ phone: `+1415556${String(1000 + i)}` }],
          },
        }),
      ),
    );
    await pool(PAGE_CALLS, 8, (i) =>
      call('POST', '/api/v4/alerts', { title: `Bench ${i}`, urgency: 'high', destination_account_user_ids: [paged[i].id] }),
    );
    const until = Date.now() + 120_000;
    const placed = () => aws.calls.filter((c) => c.operation === 'CreateSipMediaApplicationCall' && c.messageId);
    while (placed().length < PAGE_CALLS && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    if (placed().length < PAGE_CALLS) throw new Error(`only ${placed().length} of ${PAGE_CALLS} calls were placed`);
    await pool(PAGE_CALLS, CONCURRENCY, async (i) => {
      const request = placed()[i];
      const replay = new ReplayedCall(request.messageId!, {
        callId: `call-${i}`,
        to: String(request.body.ToPhoneNumber),
        from: FROM,
        direction: 'Outbound',
      });
      await used(
        'page',
        replay.send('NEW_OUTBOUND_CALL', { Type: 'CallCreateRequest', Parameters: { Arguments: request.body.ArgumentsMap } }),
      );
      await timed('page_answered', () => used('page', replay.send('CALL_ANSWERED')));
      await timed('page_key_repeat', () => used('page', replay.pressed('3')));
      await timed('page_key_acknowledge', () => used('page', replay.pressed('1')));
      await timed('page_hangup', () => used('page', replay.hangup('0')));
    });

    // Live calls: a live_call integration on a number, rung layer by layer.
    const number = '+12065550199';
    await call('POST', '/api/v4/integrations', {
      name: 'Hotline',
      urgency: 'high',
      integration_type_id: 'live_call',
      team_ids: [team.id],
      options: { phone_number: number },
    });
    await pool(CALLS, CONCURRENCY, async (i) => {
      const replay = new ReplayedCall(`live-${i}-${randomBytes(4).toString('hex')}`, {
        callId: `live-${i}`,
        to: number,
        from: '+15105550101',
        direction: 'Inbound',
      });
      await timed('live_new_inbound_call', () => used('live', replay.send('NEW_INBOUND_CALL')));
      await timed('live_no_answer_next_layer', () =>
        used('live', replay.send('ACTION_FAILED', { Type: 'CallAndBridge', ErrorType: 'CallNotAnswered' })),
      );
      replay.addLegB({ callId: `live-${i}-b`, to: people[1].phone, from: number, direction: 'Outbound' });
      await timed('live_answered', async () => {
        const bridged = await used('live', replay.send('ACTION_SUCCESSFUL', { Type: 'CallAndBridge' }));
        // The second layer's person answered: what is timed is their acknowledgement.
        if (bridged.TransactionAttributes?.answered !== '1' || bridged.TransactionAttributes.next !== '1')
          throw new Error(`the bridge was not the second layer's: ${JSON.stringify(bridged.TransactionAttributes)}`);
      });
      await timed('live_hangup', () => used('live', replay.hangup('0', 'LEG-B')));
    });
    return Object.assign(
      {
        page_calls: PAGE_CALLS,
        live_calls: CALLS,
        concurrency: CONCURRENCY,
        // A page answered, repeated once (key 3) and acknowledged; a live call rung to layer 2, answered there.
        page_invocations_per_call: round(usage.page.invocations / PAGE_CALLS, 1),
        page_polly_characters_per_call: round(usage.page.characters / PAGE_CALLS, 0),
        live_invocations_per_call: round(usage.live.invocations / CALLS, 1),
        live_polly_characters_per_call: round(usage.live.characters / CALLS, 0),
      },
      ...Object.entries(times).map(([name, values]) => stats(name, values)),
    ) as Figures;
  } finally {
    await runtime.stop();
    await aws.close();
  }
}

runWhenMain(import.meta.url, benchVoice);
