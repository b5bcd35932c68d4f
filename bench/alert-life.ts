// The DynamoDB request units of one alert's life (issue 21: ≤ 60 write units, ≤ 20 read units),
// through the real local service on the embedded emulators: an alert created through
// POST /api/v4/alerts for a team with two layers of one person each, routed, layer 1 paged, layer
// 1's timeout passed on the service's clock so layer 2 is paged, acknowledged, resolved, and layer
// 2's timer left to arrive. Every DynamoDB call of the process is metered (bench/capacity-meter.ts:
// ReturnConsumedCapacity INDEXES; reads and table writes as the emulator reports them, index writes
// computed from the items before and after each write and the table's index definitions).
//
// Steps are the stretches between resting points (test/support/quiescence.ts); within the first,
// the worker running a call (its AsyncLocalStorage) tells create (the API), routing (the routing
// worker) and layer 1's page (the other workers) apart. `test/bench/alert-life-budget.test.ts`
// holds the same life to the budget in docs/ARCHITECTURE.md ("Write budget per alert life").
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { startRuntime } from '../infra/local/runtime';
import { SWEEP_GRACE_MS } from '../lib/escalation/sweep';
import { sweeperDuty } from '../functions/scheduled/sweeper';
import { ApiClient } from '../test/support/api-client';
import { forgetOutboxMessages, outboxMessages, testClock, testDependencies } from '../test/support/dependencies';
import { passTime, settle } from '../test/support/quiescence';
import type { TestService } from '../test/support/runtime';
import { emptyUnits, meterCapacity, totalRead, totalWrite, type MeteredCall, type Units } from './capacity-meter';
import { round, runWhenMain } from './support';

// The routing worker pages layer 1 itself (the escalation's first step runs in the routing step), so
// "page layer 1" holds only what other workers do for it (the escalation worker, the webhook worker).
export const STEPS = [
  'create',
  'routing + page layer 1',
  'page layer 1 (other workers)',
  'timeout → layer 2',
  'acknowledge',
  'resolve',
  "layer 2's timer",
] as const;
export type Step = (typeof STEPS)[number];

/**
 * The sweeper's reads of the shared shards (the due index, unrouted alerts, teams to watch) and its
 * duties other than an alert's late escalation step (going on call: each team's schedule and its last
 * on-call set; the counter repair: one counter item and its cursor; the other shards' re-drives): it
 * runs every minute whatever the alerts, so they are a cost per minute, not per alert, and are kept out
 * of the life's totals. Here they show only because the bench runs the sweeper to pass layer 1's time.
 */
export const SWEEPER_SCANS = 'sweeper scans and duties (each minute, not per alert)';
/** The sweeper's duty whose calls belong to the alert: its late escalation steps. */
const ALERT_DUTY = 'escalation timers';
export const MEASURED_HOW =
  'ReturnConsumedCapacity INDEXES on every call; reads and table writes as dynalite reports them; ' +
  'index writes computed from the items before/after each write and the index definitions (dynalite reports none)';

export interface AlertLife {
  lives: number;
  /** Mean units per step of one life. */
  steps: Record<Step, Units>;
  total: Units;
  /** The sweeper's shard reads during the life (not in the totals: see SWEEPER_SCANS). */
  sweeper: Units;
}

const LAYER_MINUTES = 5;

const created = z.object({ id: z.string() });
const createdTeam = created.extend({ escalation_policy_id: z.string(), schedule_id: z.string() });

/** The answer's body read with `schema`; a refusal or another shape stops the benchmark. */
async function expectOk<S extends z.ZodType>(
  result: Promise<{ status: number; body: unknown; text: string }>,
  what: string,
  schema: S,
): Promise<z.infer<S>> {
  const res = await result;
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 300)}`);
  return schema.parse(res.body);
}

async function person(admin: ApiClient, name: string): Promise<string> {
  const user = await expectOk(
    admin.post('/api/v4/account_users', {
      user_attributes: {
        name,
        emails_attributes: [{ email: `${name.toLowerCase().replace(/\W/g, '')}-${randomBytes(3).toString('hex')}@example.com` }],
      },
    }),
    'account user',
    created,
  );
  return user.id;
}

async function twoLayerTeam(admin: ApiClient, layers: string[]): Promise<string> {
  const team = await expectOk(
    admin.post('/api/v4/teams', {
      name: `Life ${randomBytes(3).toString('hex')}`,
      member_account_user_ids: layers,
      admin_account_user_ids: [layers[0]],
    }),
    'team',
    createdTeam,
  );
  await expectOk(
    admin.put(`/api/v4/escalation_policies/${team.escalation_policy_id}`, {
      escalation_layers: layers.map((_, i) => ({ layer: i + 1, timeout: LAYER_MINUTES, timeout_unit: 'minutes' })),
    }),
    'policy',
    z.unknown(),
  );
  for (const [i, id] of layers.entries()) {
    await expectOk(
      admin.post('/api/v4/events', {
        schedule_ids: [team.schedule_id],
        account_user_ids: [id],
        layer: i + 1,
        start_datetime: new Date(Date.now() - 3_600_000).toISOString(),
        end_datetime: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        time_zone: 'UTC',
      }),
      'event',
      z.unknown(),
    );
  }
  return team.id;
}

function addInto(into: Units, from: Units, scale = 1): void {
  into.tableWrite += from.tableWrite * scale;
  into.tableRead += from.tableRead * scale;
  into.failedConditions += from.failedConditions * scale;
  for (const key of ['indexWrite', 'indexRead', 'calls', 'byItem', 'readByItem'] as const) {
    for (const [name, n] of Object.entries(from[key])) into[key][name] = (into[key][name] ?? 0) + n * scale;
  }
  for (const [name, n] of Object.entries(from.itemBytes)) into.itemBytes[name] = Math.max(into.itemBytes[name] ?? 0, n);
}

/**
 * Runs `lives` alert lives after one unmetered warm-up life (so in-process caches are as warm as in
 * a busy Lambda) and returns the mean units per step. `on`: a service already started with the
 * test dependencies (test clock, memory outbox) and its admin; without it, a service of its own.
 */
export async function measureAlertLife(lives = 3, on?: { service: TestService; admin: ApiClient }): Promise<AlertLife> {
  if (on) return lifeOn(on.service, on.admin, lives);
  const { service, admin, stop } = await startLifeService('life');
  try {
    return await lifeOn(service, admin, lives);
  } finally {
    await stop();
  }
}

/** A service of its own for alert lives: the test clock and memory outbox, no periodic sweep, an API key for `admin`. */
export async function startLifeService(name: string): Promise<{ service: TestService; admin: ApiClient; stop: () => Promise<void> }> {
  const apiKey = `${name}-key-${randomBytes(16).toString('hex')}`;
  forgetOutboxMessages();
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: `oncall-${name}-${randomBytes(4).toString('hex')}`,
    scheduleIntervalMs: 3_600_000,
    // As deployed: a worker's summed counts go at once (the local runtime lets them wait 100 ms for
    // other work's, which would share writes a deployed worker pays, and time an invocation with the wait).
    unhurriedLingerMs: 0,
    dependencies: testDependencies,
    env: { OUTBOX: 'memory', LOG_LEVEL: 'error' },
    bootstrap: { email: `${name}@example.com`, password: `${name} password 123`, apiKey },
  });
  return {
    service: { runtime } as TestService,
    admin: new ApiClient(runtime.url, { authorization: `Bearer ${apiKey}` }),
    stop: async () => {
      testClock.reset();
      await runtime.stop();
    },
  };
}

/** The team every life pages: two layers of one person each, LAYER_MINUTES apart. */
export async function lifeTeam(admin: ApiClient): Promise<string> {
  return twoLayerTeam(admin, [await person(admin, 'Layer One'), await person(admin, 'Layer Two')]);
}

/**
 * One alert's life on `service` (see the top of this file), through `admin`'s API calls; `onStep` is
 * told as each step begins. Fails when a layer is not paged once or a page comes after the acknowledgement.
 */
export async function liveOnce(
  service: TestService,
  admin: ApiClient,
  teamId: string,
  title: string,
  onStep: (step: Step) => void = () => {},
): Promise<void> {
  const pastLayer = LAYER_MINUTES * 60_000 + SWEEP_GRACE_MS;
  const pagesOf = () => outboxMessages().filter((m) => m.channel === 'email' && m.message.includes(title)).length;
  onStep('create');
  const alert = await expectOk(admin.post('/api/v4/alerts', { title, urgency: 'high', destination_team_ids: [teamId] }), 'create', created);
  await settle(service);
  if (pagesOf() !== 1) throw new Error(`${title}: layer 1 was not paged once (${pagesOf()} pages)`);
  onStep('timeout → layer 2');
  await passTime(service, pastLayer);
  if (pagesOf() !== 2) throw new Error(`${title}: layer 2 was not paged (${pagesOf()} pages)`);
  onStep('acknowledge');
  await expectOk(admin.post(`/api/v4/alerts/${alert.id}/acknowledge`), 'acknowledge', z.unknown());
  await settle(service);
  onStep('resolve');
  await expectOk(admin.post(`/api/v4/alerts/${alert.id}/resolve`), 'resolve', z.unknown());
  await settle(service);
  onStep("layer 2's timer");
  await passTime(service, pastLayer);
  if (pagesOf() !== 2) throw new Error(`${title}: paged after its acknowledgement`);
}

async function lifeOn(service: TestService, admin: ApiClient, lives: number): Promise<AlertLife> {
  const teamId = await lifeTeam(admin);

  let phase: Step = 'create';
  const stepOf = (functionName: string | undefined, call: MeteredCall): Step | typeof SWEEPER_SCANS => {
    const shared = call.command === 'Query' && typeof call.partition === 'string' && !/^(A|ESC)#/.test(call.partition);
    if (shared && functionName === undefined) return SWEEPER_SCANS;
    const duty = sweeperDuty.getStore();
    if (duty !== undefined && duty !== ALERT_DUTY && functionName === undefined) return SWEEPER_SCANS;
    if (phase !== 'create' || functionName === undefined) return phase;
    return functionName === 'routingWorker' ? 'routing + page layer 1' : 'page layer 1 (other workers)';
  };
  const oneLife = (title: string) =>
    liveOnce(service, admin, teamId, title, (step) => {
      phase = step;
    });

  await oneLife(`Warm-up ${randomBytes(3).toString('hex')}`);
  const meter = meterCapacity(service.runtime.emulators.dynamodbEndpoint, stepOf);
  try {
    for (let i = 0; i < lives; i++) await oneLife(`Life ${i} ${randomBytes(3).toString('hex')}`);
  } finally {
    meter.stop();
  }
  const steps = Object.fromEntries(STEPS.map((s) => [s, emptyUnits()])) as Record<Step, Units>;
  const total = emptyUnits();
  const sweeper = emptyUnits();
  for (const [name, units] of meter.steps) {
    if (name === SWEEPER_SCANS) {
      addInto(sweeper, units, 1 / lives);
      continue;
    }
    addInto(steps[name as Step], units, 1 / lives);
    addInto(total, units, 1 / lives);
  }
  return { lives, steps, total, sweeper };
}

/** One row per step and the total, for console.table. */
export function lifeTable(life: AlertLife): Record<string, string | number>[] {
  const row = (name: string, u: Units) => ({
    step: name,
    write_units: round(totalWrite(u), 1),
    table: round(u.tableWrite, 1),
    ...Object.fromEntries(['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6'].map((g) => [g, round(u.indexWrite[g] ?? 0, 1)])),
    read_units: round(totalRead(u), 1),
    calls: round(
      Object.values(u.calls).reduce((a, b) => a + b, 0),
      1,
    ),
  });
  return [...STEPS.map((s) => row(s, life.steps[s])), row('total', life.total), row(SWEEPER_SCANS, life.sweeper)];
}

export async function benchAlertLife(): Promise<Record<string, number | string>> {
  const life = await measureAlertLife(Number(process.env.BENCH_LIFE_SAMPLES ?? 3));
  console.table(lifeTable(life));
  if (process.env.BENCH_LIFE_DETAIL) {
    for (const step of STEPS)
      console.log(step, 'writes', JSON.stringify(life.steps[step].byItem), 'reads', JSON.stringify(life.steps[step].readByItem));
    console.log('largest item written, bytes', JSON.stringify(life.total.itemBytes));
  }
  const figures: Record<string, number | string> = {
    'alert_life.measured': MEASURED_HOW,
    'alert_life.lives': life.lives,
    'alert_life.write_units': round(totalWrite(life.total), 1),
    'alert_life.write_units_table': round(life.total.tableWrite, 1),
    'alert_life.write_units_indexes': round(totalWrite(life.total) - life.total.tableWrite, 1),
    'alert_life.read_units': round(totalRead(life.total), 1),
    'alert_life.sweeper_scan_read_units': round(totalRead(life.sweeper), 1),
    'alert_life.sweeper_scan_write_units': round(totalWrite(life.sweeper), 1),
    'alert_life.failed_conditions': round(life.total.failedConditions, 1),
    'alert_life.calls_by_kind': JSON.stringify(Object.fromEntries(Object.entries(life.total.calls).map(([k, v]) => [k, round(v, 1)]))),
  };
  for (const step of STEPS) {
    figures[`alert_life.${step}.write_units`] = round(totalWrite(life.steps[step]), 1);
    figures[`alert_life.${step}.read_units`] = round(totalRead(life.steps[step]), 1);
  }
  return figures;
}

runWhenMain(import.meta.url, benchAlertLife);
