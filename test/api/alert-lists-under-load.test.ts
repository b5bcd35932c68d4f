// Every alert list shape while the pipeline is saturated (issue 21: `created_at` between answered 500
// while a burst of webhooks was being worked off). The burst is held, not timed: a gate holds every
// write of the background work (the queue workers, lib/sdk.ts runInBackground), so the webhooks are
// accepted and their messages sit in the workers, mid-flight, for as long as the lists run. Each
// shape, on /api/v4 and on the earlier interface, must answer 200 with the total and the page size an
// in-memory filter of the alerts gives, within a bound: a list that waited on held work would wait
// for ever, so it fails by its deadline instead. Once the gate opens and the runtime settles, the
// totals include the burst.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiResult } from '../support/api-client';
import { holdAwsCalls } from '../support/aws-gates';
import { settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import { inBackground } from '../../lib/sdk';

const BURST = 30;
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem', 'SendMessage', 'SendMessageBatch']);
/** Far more than a list takes here; a list that waits on held work never answers at all. */
const LIST_DEADLINE_MS = 8_000;

interface Alert {
  id: string;
  title: string;
  status: string;
  urgency: string;
  tag_list: string[];
  thirdparty_id: string | null;
  created_at: string;
}

let service: TestService;
let admin: ApiClient;
let webhook: string;
let from: string;
let to: string;
let middle: string;

useService(
  async (started) => {
    service = started;
    admin = started.admin;
    from = new Date(Date.now() - 60_000).toISOString();
    const me = (await admin.get('/api/v4/account_users')).body.data[0].id as string;
    for (let i = 0; i < 8; i++) {
      const res = await admin.post('/api/v4/alerts', {
        title: `Seeded kestrel ${i}`,
        urgency: i % 2 ? 'high' : 'low',
        tag_list: i % 3 ? ['db'] : ['web'],
        thirdparty_id: `seed-${i % 4}`,
        destination_account_user_ids: [me],
      });
      expect(res.status, res.text).toBe(201);
      if (i === 3) middle = res.body.created_at;
      if (i % 4 === 0) expect((await admin.post(`/api/v4/alerts/${res.body.id}/acknowledge`, {})).status).toBe(200);
    }
    const integration = await admin.post('/api/v4/integrations', {
      name: 'burst',
      integration_type_id: 'webhook',
      urgency: 'high',
      account_user_ids: [me],
      option_rate_limit_per_minute: 100_000,
      option_rate_limit_burst: 10_000,
    });
    expect(integration.status, integration.text).toBe(201);
    webhook = `/integration/${integration.body.prefix_id}`;
    // Past the burst's alerts too: the range holds every alert of the file.
    to = new Date(Date.now() + 10 * 60_000).toISOString();
    await settle(service);
  },
  // Messages held in a worker stay invisible for the whole hold: no redelivery doubles the work
  // that is released afterwards.
  { visibilityTimeoutSeconds: 60 },
);

/** Every alert, read page by page while nothing moves (the truth the shapes are checked against). */
const everyAlert = () => admin.everyPage<Alert>('/api/v4/alerts');

interface Shape {
  path: string;
  holds: (alert: Alert) => boolean;
  /** The page's size and start, when not the default first 10. */
  limit?: number;
  offset?: number;
}

/** Each shape: its path and which alerts it holds. */
function shapes(): Shape[] {
  const range = `created_at=${from}..${to}&ops=created_at:between`;
  const all = () => true;
  const createdFrom = (a: Alert) => a.created_at >= middle;
  return [
    { path: '/api/v4/alerts', holds: all },
    { path: '/api/v4/alerts?limit=3&offset=3', holds: all, limit: 3, offset: 3 },
    { path: '/api/v4/alerts?limit=4&page=2', holds: all, limit: 4, offset: 4 },
    { path: '/api/v4/alerts?status=open', holds: (a) => a.status === 'open' },
    { path: '/api/v4/alerts?urgency=high', holds: (a) => a.urgency === 'high' },
    { path: '/api/v4/alerts?status=acknowledged&urgency=low', holds: (a) => a.status === 'acknowledged' && a.urgency === 'low' },
    { path: '/api/v4/alerts?tag_list=db', holds: (a) => a.tag_list.includes('db') },
    { path: '/api/v4/alerts?thirdparty_id=seed-1', holds: (a) => a.thirdparty_id === 'seed-1' },
    { path: `/api/v4/alerts?${range}`, holds: all },
    { path: `/api/v4/alerts?${range}&status=open&limit=2`, holds: (a) => a.status === 'open', limit: 2 },
    { path: `/api/v4/alerts?created_at=${middle}&ops=created_at:gte`, holds: createdFrom },
    {
      path: `/api/v4/alerts?created_at=${middle}&ops=created_at:lt&status=acknowledged`,
      holds: (a) => !createdFrom(a) && a.status === 'acknowledged',
    },
    { path: '/api/v4/alerts?sort=created_at&direction=asc&limit=4', holds: all, limit: 4 },
    { path: '/api/v4/alerts?sort=updated_at&direction=desc', holds: all },
    { path: '/api/v4/alerts?sort=tiny_id&direction=asc&limit=2&offset=1', holds: all, limit: 2, offset: 1 },
    { path: '/api/v4/alerts?q=kestrel', holds: (a) => a.title.includes('kestrel') },
    { path: '/api/v4/alerts?sort=title&direction=asc', holds: all },
    { path: '/alert', holds: all },
    { path: '/alert?status=open&urgency=high&limit=2', holds: (a) => a.status === 'open' && a.urgency === 'high', limit: 2 },
    { path: '/alert?tags=web', holds: (a) => a.tag_list.includes('web') },
    { path: '/alert?sort=-tinyId&limit=3&offset=2', holds: all, limit: 3, offset: 2 },
    { path: `/alert?createdAt=${middle}&ops=createdAt:gte&limit=3&page=2`, holds: createdFrom, limit: 3, offset: 3 },
    { path: '/alert?status=acknowledged&select=tinyId,status', holds: (a) => a.status === 'acknowledged' },
  ];
}

/** A list's answer, or null when none came by the deadline. */
async function within(path: string): Promise<ApiResult<{ total_count?: number; data?: unknown[] }> | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), LIST_DEADLINE_MS);
  });
  try {
    return await Promise.race([admin.get(path), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every shape at once; answers the shapes whose status, total or page size was not what the alerts say. */
async function listEveryShape(alerts: Alert[]): Promise<string[]> {
  const wrong: string[] = [];
  await Promise.all(
    shapes().map(async ({ path, holds, limit = 10, offset = 0 }) => {
      const res = await within(path);
      if (!res) return void wrong.push(`${path}: no answer within ${LIST_DEADLINE_MS} ms`);
      const total = alerts.filter(holds).length;
      const page = Math.max(0, Math.min(limit, total - offset));
      const got = `${res.status} total ${res.body?.total_count} page ${res.body?.data?.length}`;
      if (got !== `200 total ${total} page ${page}`)
        wrong.push(`${path}: ${got}, want 200 total ${total} page ${page}: ${res.text.slice(0, 200)}`);
    }),
  );
  return wrong;
}

describe('alert lists while a burst of webhooks is in flight', () => {
  let before: Alert[];
  beforeAll(async () => {
    before = await everyAlert();
  });

  it('answers every shape with its exact total, then counts the burst once it is worked off', async () => {
    // The workers' writes are held (their reads go on: a cache a worker fills may be one a list awaits).
    const gate = holdAwsCalls((call) => inBackground() && WRITES.has(call.operation));
    try {
      for (let i = 0; i < BURST; i++) {
        const res = await service.anonymous.post(webhook, { event_type: 'create', id: `burst-${i}`, title: `Burst kestrel ${i}` });
        expect(res.status, res.text).toBe(202);
      }
      // The workers have the burst and are stuck on it: the pipeline is saturated while the lists run.
      await gate.next();
      expect(await listEveryShape(before)).toEqual([]);
    } finally {
      gate.open();
    }
    await settle(service);
    const after = await everyAlert();
    expect(after.length).toBe(before.length + BURST);
    expect(await listEveryShape(after)).toEqual([]);
  });
});
