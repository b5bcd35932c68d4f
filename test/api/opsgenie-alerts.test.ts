// Opsgenie Alert API drop-in (docs/api.md#opsgenie-alert-api-drop-in): /v2/alerts through the real local
// server, with Opsgenie's documented create request and what Grafana's Opsgenie contact point sends.
// @moto: one alert per alias under retries (the dedup item's conditional writes) and a redelivered request.
import { describe, expect, it } from 'vitest';
import { getIncomingLog, type IncomingLog } from '../../lib/integrations/ingest/incoming-log';
import { sendToIngestQueue } from '../../lib/integrations/ingest/ingest-queue';
import { settle } from '../support/quiescence';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { alertById, alertsWithThirdpartyId, createIntegration, eventually, senderFixture, settledAlerts } from '../integrations/support';

let service: TestService;
let opsgenie: { id: string; prefix_id: string; account_id: string };

useService(async (started) => {
  service = started;
  opsgenie = (await createIntegration(service.admin, { type: 'opsgenie', urgency: 'medium' })) as typeof opsgenie;
});

const uid = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A request as an Opsgenie sender makes it: its method, path, body bytes and GenieKey. */
async function send(
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
  key: string | null,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { authorization: `GenieKey ${key}` }), ...headers },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

const create = (body: unknown, key: string = opsgenie.prefix_id) => send('POST', '/v2/alerts', body, key);
const act = (
  verb: 'close' | 'acknowledge',
  identifier: string,
  type: string | null,
  key: string = opsgenie.prefix_id,
  body: unknown = {},
) => send('POST', `/v2/alerts/${encodeURIComponent(identifier)}/${verb}${type ? `?identifierType=${type}` : ''}`, body, key);

function fixture(changes: Record<string, unknown> = {}): Record<string, any> {
  return { ...(JSON.parse(senderFixture('opsgenie/create.json')) as Record<string, unknown>), ...changes };
}

/** The stored request's log id of an accepted answer: its requestId is that ULID written as a UUID. */
function logIdOf(requestId: string): string {
  let value = BigInt(`0x${requestId.replace(/-/g, '')}`);
  let ulid = '';
  for (let i = 0; i < 26; i++) {
    ulid = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Number(value % 32n)] + ulid;
    value /= 32n;
  }
  return ulid;
}

async function settledLog(accountId: string, requestId: string): Promise<IncomingLog> {
  return eventually(async () => {
    const log = await getIncomingLog(accountId, logIdOf(requestId));
    return log && log.status !== 'pending' ? log : undefined;
  });
}

async function logCount(integration: { prefix_id: string }): Promise<number> {
  const res = await service.admin.get(`/log?owner_id=${integration.prefix_id}&limit=1`);
  expect(res.status).toBe(200);
  return res.body.total_count as number;
}

const statusOf = (id: string, status: string) =>
  eventually(async () => ((await alertById(service.admin, id)).status === status ? true : undefined));

describe('/v2/alerts: accepted requests', () => {
  it("answers Opsgenie's 202 and makes the alert from the documented create, keeping what it says", async () => {
    const alias = uid('disk-usage-db-3');
    const res = await create(fixture({ alias }));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ result: 'Request will be processed', took: expect.any(Number), requestId: expect.stringMatching(UUID) });
    expect(res.headers.get('x-request-id')).toBe(res.body.requestId);

    const [alert] = await settledAlerts(service.admin, alias);
    expect(alert).toMatchObject({
      title: 'Disk usage above 90% on db-3',
      description: 'The data volume of db-3 is 91% full and grows about 2% a day.',
      urgency: 'critical',
      status: 'open',
      thirdparty_id: alias,
      source_type: 'Integration',
      source_id: opsgenie.id,
    });
    expect(alert.tag_list).toEqual(['OverwriteQuietHours', 'Critical']);
    expect(alert.additional_data).toEqual(
      expect.arrayContaining([
        { type: 'string', label: 'priority', value: 'P1' },
        { type: 'string', label: 'entity', value: 'db-3' },
        { type: 'string', label: 'source', value: 'Nagios' },
        { type: 'string', label: 'user', value: 'Monitoring Script' },
        { type: 'string', label: 'note', value: 'Opened by the nightly capacity check' },
        { type: 'string', label: 'details.key1', value: 'value1' },
        { type: 'string', label: 'details.key2', value: 'value2' },
        { type: 'json', label: 'actions', value: ['Restart', 'AnExampleAction'] },
        { type: 'json', label: 'responders', value: expect.arrayContaining([{ name: 'Database Team', type: 'team' }]) },
      ]),
    );
    // The request id names the stored request: its log, processed, owned by the integration.
    const log = await settledLog(opsgenie.account_id, res.body.requestId);
    expect(log).toMatchObject({ status: 'processed', owner_id: opsgenie.prefix_id, data: { adapter: 'opsgenie', path: '/v2/alerts' } });
    expect(log.data.headers.authorization).toBe('[redacted]');
  });

  it('maps P2 to high, P3 to medium, P4 and P5 to low, and no priority to the integration’s urgency', async () => {
    const cases: Array<[string | undefined, string]> = [
      ['P2', 'high'],
      ['P3', 'medium'],
      ['P4', 'low'],
      ['P5', 'low'],
      [undefined, 'medium'],
    ];
    const aliases = cases.map(([priority]) => uid(`priority-${priority ?? 'none'}`));
    for (const [i, [priority]] of cases.entries()) {
      expect(
        (await create({ message: `priority ${priority ?? 'none'}`, alias: aliases[i], ...(priority ? { priority } : {}) })).status,
      ).toBe(202);
    }
    for (const [i, [, urgency]] of cases.entries()) expect((await settledAlerts(service.admin, aliases[i]))[0].urgency).toBe(urgency);
  });

  it('counts a second create with the alias of the open alert onto it, as Opsgenie deduplicates', { tags: ['moto'] }, async () => {
    const alias = uid('dedup');
    expect((await create({ message: 'first', alias })).status).toBe(202);
    const [alert] = await settledAlerts(service.admin, alias);
    expect((await create({ message: 'second', alias })).status).toBe(202);
    const counted = await eventually(async () => {
      const found = await alertById(service.admin, alert.id);
      return found.dedup_count === 2 ? found : undefined;
    });
    expect(counted.title).toBe('first');
    expect(await alertsWithThirdpartyId(service.admin, alias)).toHaveLength(1);

    // Once it is closed, the alias starts a new alert.
    expect((await act('close', alias, 'alias')).status).toBe(202);
    await statusOf(alert.id, 'resolved');
    expect((await create({ message: 'third', alias })).status).toBe(202);
    const both = await settledAlerts(service.admin, alias, 2);
    expect(both.map((a) => a.title)).toEqual(['first', 'third']);
  });

  it('a request processed twice (a sender retry, then a queue redelivery of it) leaves one alert', { tags: ['moto'] }, async () => {
    const alias = uid('retried');
    const first = await create({ message: 'retried create', alias });
    const [alert] = await settledAlerts(service.admin, alias);
    const retry = await create({ message: 'retried create', alias });
    expect(retry.body.requestId).not.toBe(first.body.requestId);
    await settledLog(opsgenie.account_id, retry.body.requestId);
    expect((await alertById(service.admin, alert.id)).dedup_count).toBe(2);

    // The queue delivers both stored requests again: their effects were had once, and stay so.
    for (const { body } of [first, retry]) await sendToIngestQueue({ account_id: opsgenie.account_id, log_id: logIdOf(body.requestId) });
    await settle(service);
    expect(await alertsWithThirdpartyId(service.admin, alias)).toHaveLength(1);
    expect((await alertById(service.admin, alert.id)).dedup_count).toBe(2);
  });

  it('acknowledges and closes by alias', async () => {
    const alias = uid('by-alias');
    await create({ message: 'by alias', alias });
    const [alert] = await settledAlerts(service.admin, alias);
    expect((await act('acknowledge', alias, 'alias', opsgenie.prefix_id, { user: 'Monitoring Script', note: 'seen' })).status).toBe(202);
    await statusOf(alert.id, 'acknowledged');
    const closed = await act('close', alias, 'alias');
    expect(closed.body).toEqual({ result: 'Request will be processed', took: expect.any(Number), requestId: expect.stringMatching(UUID) });
    await statusOf(alert.id, 'resolved');
    const log = await settledLog(opsgenie.account_id, closed.body.requestId);
    expect(log.data.result?.actions).toEqual([{ action: 'resolve', thirdparty_id: alias, alert_id: alert.id, outcome: 'resolved' }]);
  });

  it('acknowledges and closes by our id (identifierType id, the default) and by tiny id', async () => {
    const aliases = [uid('by-id'), uid('by-tiny')];
    await create({ message: 'by id', alias: aliases[0] });
    await create({ message: 'by tiny id', alias: aliases[1] });
    const [byId] = await settledAlerts(service.admin, aliases[0]);
    const [byTiny] = await settledAlerts(service.admin, aliases[1]);

    expect((await act('acknowledge', byId.prefix_id, null)).status).toBe(202);
    await statusOf(byId.id, 'acknowledged');
    // An empty body, as curl -X POST sends it: close needs none.
    expect((await send('POST', `/v2/alerts/${byId.id}/close?identifierType=id`, undefined, opsgenie.prefix_id)).status).toBe(202);
    await statusOf(byId.id, 'resolved');

    expect((await act('acknowledge', String(byTiny.tiny_id), 'tiny')).status).toBe(202);
    await statusOf(byTiny.id, 'acknowledged');
    expect((await act('close', String(byTiny.tiny_id), 'TINY')).status).toBe(202);
    await statusOf(byTiny.id, 'resolved');
  });

  it("cannot reach another account's alert by alias, id or tiny id", async () => {
    const alias = uid('mine');
    await create({ message: 'not theirs', alias });
    const [alert] = await settledAlerts(service.admin, alias);
    const other = await signupAccount(service, 'Elsewhere');
    const theirs = await createIntegration(other.client, { type: 'opsgenie' });

    const tries = [
      await act('close', alias, 'alias', theirs.prefix_id),
      await act('close', alert.id, 'id', theirs.prefix_id),
      await act('acknowledge', String(alert.tiny_id), 'tiny', theirs.prefix_id),
    ];
    // Opsgenie answers 202 before it looks for the alert; the outcome is in the stored request.
    for (const res of tries) expect(res.status).toBe(202);
    for (const res of tries) {
      const log = await settledLog(theirs.account_id as string, res.body.requestId);
      expect(log.data.result?.actions?.[0]).toMatchObject({ outcome: 'no_alert' });
      expect(log.data.result?.alert_ids).toEqual([]);
    }
    expect((await alertById(service.admin, alert.id)).status).toBe('open');
  });

  it("accepts Alertmanager's message and description updates and keeps the create's title", async () => {
    const alias = uid('updated');
    await create({ message: '[FIRING:1] HighLatency', alias, description: 'first' });
    const [alert] = await settledAlerts(service.admin, alias);
    const message = await send(
      'PUT',
      `/v2/alerts/${alias}/message?identifierType=alias`,
      { message: '[FIRING:2] HighLatency' },
      opsgenie.id,
    );
    const description = await send('PUT', `/v2/alerts/${alias}/description?identifierType=alias`, { description: 'second' }, opsgenie.id);
    expect([message.status, description.status]).toEqual([202, 202]);
    for (const res of [message, description]) {
      expect((await settledLog(opsgenie.account_id, res.body.requestId)).status).toBe('ignored');
    }
    expect(await alertById(service.admin, alert.id)).toMatchObject({ title: '[FIRING:1] HighLatency', description: 'first' });
  });

  it("takes what Grafana's Opsgenie contact point sends: its create, then its close by alias", async () => {
    const integration = await createIntegration(service.admin, { type: 'webhook', urgency: 'high' });
    const headers = { 'user-agent': 'Grafana' };
    const body = senderFixture('opsgenie/grafana-create.json');
    const alias = (JSON.parse(body) as { alias: string }).alias;
    const res = await send('POST', '/v2/alerts', body, integration.id, headers);
    expect(res.status).toBe(202);
    const [alert] = await eventually(async () => {
      const found = (await alertsWithThirdpartyId(service.admin, alias)).filter((a) => a.source_id === integration.id);
      return found.length > 0 ? found : undefined;
    });
    expect(alert).toMatchObject({ title: '[FIRING:1] HighCPU Infra (web-1)', urgency: 'high', status: 'open' });
    expect(alert.description).toContain('Silence: http://grafana.example.com/alerting/silence/new?alertmanager=grafana&matcher=');
    expect(alert.tag_list).toEqual(['alertname:HighCPU', 'grafana_folder:Infra', 'instance:web-1']);
    expect(alert.additional_data).toEqual(
      expect.arrayContaining([
        { type: 'string', label: 'source', value: 'Grafana' },
        { type: 'link', label: 'details.url', value: 'http://grafana.example.com/alerting/list' },
        { type: 'string', label: 'details.instance', value: 'web-1' },
      ]),
    );

    const close = await send(
      'POST',
      `/v2/alerts/${alias}/close?identifierType=alias`,
      senderFixture('opsgenie/grafana-close.json'),
      integration.id,
      headers,
    );
    expect(close.status).toBe(202);
    await statusOf(alert.id, 'resolved');
  });

  it('reads POST /integration/:id of an opsgenie integration as a create', async () => {
    const alias = uid('direct');
    const res = await send('POST', `/integration/${opsgenie.prefix_id}`, fixture({ alias, priority: 'P4' }), null);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ log_id: expect.stringMatching(/^log_/) });
    const [alert] = await settledAlerts(service.admin, alias);
    expect(alert).toMatchObject({ title: 'Disk usage above 90% on db-3', urgency: 'low' });
  });
});

describe('GET /v2/alerts/requests/:requestId', () => {
  const statusOf = (requestId: string, key: string | null = opsgenie.prefix_id) =>
    fetch(`${service.url}/v2/alerts/requests/${requestId}`, { headers: key === null ? {} : { authorization: `GenieKey ${key}` } }).then(
      async (res) => ({ status: res.status, body: (await res.json()) as any }),
    );
  const processed = (requestId: string) =>
    eventually(async () => {
      const res = await statusOf(requestId);
      return res.status === 200 ? res.body : undefined;
    });

  it("tells what came of a create (the alert's id, to close it by) and of a close, as Opsgenie's request status does", async () => {
    const alias = uid('status');
    const created = await create({ message: 'status of a create', alias });
    const status = await processed(created.body.requestId);
    expect(status).toEqual({
      data: {
        success: true,
        action: 'Create',
        processedAt: expect.any(String),
        integrationId: opsgenie.prefix_id,
        isSuccess: true,
        status: 'Created alert',
        alertId: expect.stringMatching(/^alt_/),
        alias,
      },
      took: expect.any(Number),
      requestId: expect.stringMatching(UUID),
    });
    const [alert] = await settledAlerts(service.admin, alias);
    expect(status.data.alertId).toBe(alert.prefix_id);

    const closed = await act('close', status.data.alertId as string, 'id');
    expect((await processed(closed.body.requestId)).data).toMatchObject({
      success: true,
      action: 'Close',
      status: 'Closed alert',
      alertId: alert.prefix_id,
    });
    const missing = await act('acknowledge', uid('nothing'), 'alias');
    expect((await processed(missing.body.requestId)).data).toMatchObject({
      success: false,
      isSuccess: false,
      action: 'Acknowledge',
      status: 'Alert does not exist',
      alertId: '',
    });
  });

  it("is 404 for an id that names nothing and for another integration's request, 401 without a key", async () => {
    const created = await create({ message: 'whose request', alias: uid('whose') });
    await processed(created.body.requestId);
    const other = await createIntegration(service.admin, { type: 'opsgenie' });
    const notFound = { message: expect.any(String), took: expect.any(Number), requestId: expect.stringMatching(UUID) };
    expect(await statusOf(created.body.requestId, other.prefix_id)).toEqual({ status: 404, body: notFound });
    expect(await statusOf('513085b8-caf3-4f91-aa23-be5fdefc3570')).toEqual({ status: 404, body: notFound });
    expect(await statusOf('not-a-uuid')).toEqual({ status: 404, body: notFound });
    expect((await statusOf(created.body.requestId, null)).status).toBe(401);
  });
});

describe("/v2/alerts: refused requests, in Opsgenie's shape, with nothing stored", () => {
  const refusal = (extra: Record<string, unknown> = {}) => ({
    message: expect.any(String),
    took: expect.any(Number),
    requestId: expect.stringMatching(UUID),
    ...extra,
  });
  const unprocessable = (errors: Record<string, unknown>) =>
    refusal({ message: 'Request body is not processable. Please check the errors.', errors });

  it.each<[string, () => Promise<Awaited<ReturnType<typeof send>>>, number, Record<string, unknown>]>([
    ['no Authorization header', () => send('POST', '/v2/alerts', { message: 'm' }, null), 401, refusal()],
    ['a key of another scheme', () => send('POST', '/v2/alerts', { message: 'm' }, null, { authorization: 'Bearer x' }), 401, refusal()],
    ['a key that names no integration', () => create({ message: 'm' }, 'int_01ARZ3NDEKTSV4RRFFQ69G5FAV'), 401, refusal()],
    ['a key that is no id at all', () => create({ message: 'm' }, 'eb243592-faa2-4ba2-a551q-1afdf565c889'), 401, refusal()],
    ['malformed JSON', () => create('{"message": '), 400, refusal()],
    ['no message', () => create({ alias: 'a' }), 422, unprocessable({ message: expect.stringMatching(/^message is required/) })],
    ['a blank message', () => create({ message: '   ' }), 422, unprocessable({ message: expect.stringMatching(/^message is required/) })],
    [
      'a message of 131 characters',
      () => create({ message: 'm'.repeat(131) }),
      422,
      unprocessable({ message: 'message can be at most 130 characters (it has 131)' }),
    ],
    [
      'an alias over 512 characters, a description over 15 000',
      () => create({ message: 'm', alias: 'a'.repeat(513), description: 'd'.repeat(15_001) }),
      422,
      unprocessable({ alias: expect.stringContaining('512'), description: expect.stringContaining('15000') }),
    ],
    [
      'priority P6',
      () => create({ message: 'm', priority: 'P6' }),
      422,
      unprocessable({ priority: 'priority must be one of P1, P2, P3, P4, P5' }),
    ],
    [
      'tags that are not an array, details that are not an object',
      () => create({ message: 'm', tags: 'a,b', details: ['x'] }),
      422,
      unprocessable({ tags: expect.any(String), details: expect.any(String) }),
    ],
    [
      'a responder of an unknown type',
      () => create({ message: 'm', responders: [{ name: 'ops', type: 'bb' }] }),
      422,
      unprocessable({ 'responders[0].type': 'responders[0].type must be one of team, user, escalation, schedule' }),
    ],
    ['a body that is not an object', () => create('[]'), 422, unprocessable({ body: expect.any(String) })],
    [
      'an unknown identifierType',
      () => act('close', 'x', 'name'),
      422,
      unprocessable({ identifierType: 'identifierType must be one of id, alias, tiny' }),
    ],
    ['a tiny id that is not a number', () => act('acknowledge', 'abc', 'tiny'), 422, unprocessable({ identifier: expect.any(String) })],
    [
      'a message update without message',
      () => send('PUT', '/v2/alerts/a/message?identifierType=alias', {}, opsgenie.id),
      422,
      unprocessable({ message: expect.any(String) }),
    ],
  ])('%s', async (_name, request, status, body) => {
    const before = await logCount(opsgenie);
    const res = await request();
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
    expect(await logCount(opsgenie)).toBe(before);
  });

  it('401 for a disabled integration, 403 for a heartbeat or a live call, which take no alerts', async () => {
    const disabled = await createIntegration(service.admin, { type: 'opsgenie', enabled: false });
    const heartbeat = await createIntegration(service.admin, { type: 'heartbeat', option_interval_seconds: 3600 });
    const off = await create({ message: 'm' }, disabled.prefix_id);
    expect(off.status).toBe(401);
    expect(off.body).toEqual(refusal({ message: 'Could not authenticate: the key names no enabled integration' }));
    const beat = await create({ message: 'm' }, heartbeat.prefix_id);
    expect(beat.status).toBe(403);
    expect(beat.body).toEqual(refusal());
    expect(await logCount(disabled)).toBe(0);
    expect(await logCount(heartbeat)).toBe(0);
    // A live call's number rings people; its id is no key for alerts either.
    const phone = `+1206555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const liveCall = await createIntegration(service.admin, { type: 'live_call', options: { phone_number: phone } });
    const called = await create({ message: 'm' }, liveCall.prefix_id);
    expect(called.status).toBe(403);
    expect(await logCount(liveCall)).toBe(0);
  });

  it('an integration with a token takes GenieKey <id>:<token> and refuses the id alone with 401', async () => {
    const secured = await createIntegration(service.admin, { type: 'opsgenie', option_token: 'sesame' });
    expect((await create({ message: 'm' }, secured.prefix_id)).status).toBe(401);
    expect((await create({ message: 'm' }, `${secured.prefix_id}:wrong`)).status).toBe(401);
    expect(await logCount(secured)).toBe(0);
    const res = await create({ message: 'with token', alias: uid('token') }, `${secured.prefix_id}:sesame`);
    expect(res.status).toBe(202);
    const log = await settledLog(secured.account_id as string, res.body.requestId);
    expect(log.data.headers['pagertree-token']).toBe('[redacted]');
  });

  it("429 in Opsgenie's shape, with Retry-After, when the integration's rate limit is used up", async () => {
    const limited = await createIntegration(service.admin, {
      type: 'opsgenie',
      option_rate_limit_burst: 2,
      option_rate_limit_per_minute: 1,
    });
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    for (let i = 0; i < 3; i++) {
      const res = await create({ message: `limited ${i}`, alias: uid('limited') }, limited.prefix_id);
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    expect(statuses).toEqual([202, 202, 429]);
    expect(refused!.body).toEqual(refusal());
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(58);
    expect(Number(refused!.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused!.headers.get('x-ratelimit-state')).toBe('THROTTLED');
    expect(await logCount(limited)).toBe(2);
  });

  it('413 for a body over 256 KiB', async () => {
    const before = await logCount(opsgenie);
    const res = await create({ message: 'big', details: { padding: 'x'.repeat(256 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(refusal());
    expect(await logCount(opsgenie)).toBe(before);
  });
});
