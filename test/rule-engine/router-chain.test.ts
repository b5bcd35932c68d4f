import { beforeAll, describe, expect, it } from 'vitest';
import type { RouterDefinition } from '../../lib/rule-engine';
import { followRouterChain } from '../../lib/rule-engine';
import { NOON_UTC, context, parsedRouter, routerYaml } from './support';
import { loadEveryPackageOnFirstUse } from '../../lib/on-first-use';

// The engines are called directly here: the packages they load on first use are loaded beforehand.
beforeAll(loadEveryPackageOnFirstUse);

function assigning(receivers: string[], extra: Record<string, unknown>[] = [], delay?: string): string {
  return routerYaml([
    { match: { always: true }, actions: [...extra, { type: 'assign', receiver: receivers, ...(delay ? { delay } : {}) }] },
  ]);
}

function lookupOf(routers: Record<string, string | RouterDefinition>) {
  const calls: string[] = [];
  const lookup = async (id: string) => {
    calls.push(id);
    const entry = routers[id];
    if (entry === undefined) return null;
    return typeof entry === 'string' ? { id, enabled: true, rules: parsedRouter(entry), default_receivers: ['tem_FALLBACK'] } : entry;
  };
  return { lookup, calls };
}

/** rtr_1 → rtr_2 → … → rtr_n → tem_END */
function chainOf(n: number) {
  const routers: Record<string, string> = {};
  for (let i = 1; i <= n; i++) routers[`rtr_${i}`] = assigning([i === n ? 'tem_END' : `rtr_${i + 1}`]);
  return routers;
}

describe('router chains', () => {
  it('follows routers to teams and users, recording each hop', async () => {
    const { lookup } = lookupOf({
      rtr_ENTRY: assigning(['rtr_DB', 'usr_WATCHER']),
      rtr_DB: assigning(['tem_DB']),
    });
    const result = await followRouterChain(['rtr_ENTRY'], lookup, context({ title: 't' }), NOON_UTC);

    expect(result.status).toBe('routed');
    expect(result.assignments).toEqual([
      { receiver: 'usr_WATCHER', kind: 'user', delay_ms: 0, router_id: 'rtr_ENTRY' },
      { receiver: 'tem_DB', kind: 'team', delay_ms: 0, router_id: 'rtr_DB' },
    ]);
    expect(result.hops.map((hop) => [hop.router_id, hop.depth, hop.via])).toEqual([
      ['rtr_ENTRY', 1, null],
      ['rtr_DB', 2, 'rtr_ENTRY'],
    ]);
  });

  it('a chain of 10 routers is followed; an 11th drops the alert', async () => {
    const ten = await followRouterChain(['rtr_1'], lookupOf(chainOf(10)).lookup, context({}), NOON_UTC);
    expect(ten.status).toBe('routed');
    expect(ten.assignments).toEqual([{ receiver: 'tem_END', kind: 'team', delay_ms: 0, router_id: 'rtr_10' }]);

    const eleven = await followRouterChain(['rtr_1'], lookupOf(chainOf(11)).lookup, context({}), NOON_UTC);
    expect(eleven.status).toBe('dropped');
    expect(eleven.assignments).toEqual([]);
    expect(eleven.reason).toMatch(/^router chain deeper than 10: rtr_1 → rtr_2 → .* → rtr_11; the alert is dropped$/);
    expect(eleven.hops).toHaveLength(10);
  });

  it('a loop drops the alert', async () => {
    const { lookup } = lookupOf({ rtr_A: assigning(['rtr_B']), rtr_B: assigning(['rtr_A']) });
    const result = await followRouterChain(['rtr_A'], lookup, context({}), NOON_UTC);

    expect(result.status).toBe('dropped');
    expect(result.reason).toBe('routers pass the alert in a loop: rtr_A → rtr_B → rtr_A; the alert is dropped');
  });

  it('an unknown router is skipped; the others still receive', async () => {
    const { lookup } = lookupOf({ rtr_A: assigning(['rtr_GONE', 'tem_X']) });
    const result = await followRouterChain(['rtr_A'], lookup, context({}), NOON_UTC);

    expect(result.status).toBe('routed');
    expect(result.skipped).toEqual([{ receiver: 'rtr_GONE', reason: 'unknown_router', via: 'rtr_A' }]);
    expect(result.assignments.map((a) => a.receiver)).toEqual(['tem_X']);
  });

  it('an ignore in a later router suppresses the alert', async () => {
    const { lookup } = lookupOf({
      rtr_A: assigning(['tem_X', 'rtr_B']),
      rtr_B: routerYaml([{ match: { always: true }, actions: [{ type: 'ignore' }] }]),
    });
    const result = await followRouterChain(['rtr_A'], lookup, context({}), NOON_UTC);

    expect(result.status).toBe('suppressed');
    expect(result.assignments).toEqual([]);
  });

  it('a later router sees the alert as earlier routers changed it', async () => {
    const { lookup } = lookupOf({
      rtr_A: assigning(['rtr_B'], [{ type: 'setval', map: { urgency: 'critical', title: 'Escalated: {{alert.title}}' } }]),
      rtr_B: routerYaml([
        { match: { 'alert.urgency': 'critical' }, actions: [{ type: 'assign', receiver: 'tem_CRIT' }] },
        { match: { always: true }, actions: [{ type: 'assign', receiver: 'tem_NORMAL' }] },
      ]),
    });
    const result = await followRouterChain(['rtr_A'], lookup, context({ title: 'Disk', urgency: 'low' }), NOON_UTC);

    expect(result.assignments.map((a) => a.receiver)).toEqual(['tem_CRIT']);
    expect(result.alert_changes).toEqual({ urgency: 'critical', title: 'Escalated: Disk' });
  });

  it('delays add up along the chain', async () => {
    const { lookup } = lookupOf({ rtr_A: assigning(['rtr_B'], [], '5m'), rtr_B: assigning(['tem_X'], [], '10m') });
    const result = await followRouterChain(['rtr_A'], lookup, context({}), NOON_UTC);

    expect(result.assignments).toEqual([{ receiver: 'tem_X', kind: 'team', delay_ms: 900_000, router_id: 'rtr_B' }]);
  });

  it('a router reached by two paths is evaluated once', async () => {
    const { lookup, calls } = lookupOf({ rtr_A: assigning(['rtr_B', 'rtr_C']), rtr_B: assigning(['rtr_C']), rtr_C: assigning(['tem_X']) });
    const result = await followRouterChain(['rtr_A'], lookup, context({}), NOON_UTC);

    expect(result.hops.map((hop) => hop.router_id)).toEqual(['rtr_A', 'rtr_B', 'rtr_C']);
    expect(calls.filter((id) => id === 'rtr_C')).toHaveLength(1);
    expect(result.assignments.map((a) => a.receiver)).toEqual(['tem_X']);
  });

  it('a disabled router in the chain passes the alert to its default receivers', async () => {
    const { lookup } = lookupOf({
      rtr_A: assigning(['rtr_OFF']),
      rtr_OFF: { id: 'rtr_OFF', enabled: false, rules: parsedRouter(assigning(['tem_NEVER'])), default_receivers: ['usr_DEFAULT'] },
    });
    const result = await followRouterChain(['rtr_A'], lookup, context({}), NOON_UTC);

    expect(result.assignments.map((a) => a.receiver)).toEqual(['usr_DEFAULT']);
  });

  it('bounds the number of routers one alert may visit', async () => {
    const routers: Record<string, string> = { rtr_ROOT: assigning(Array.from({ length: 30 }, (_, i) => `rtr_F${i}`)) };
    for (let i = 0; i < 30; i++) routers[`rtr_F${i}`] = assigning([`rtr_G${i}`]);
    for (let i = 0; i < 30; i++) routers[`rtr_G${i}`] = assigning([`tem_${i}`]);
    const result = await followRouterChain(['rtr_ROOT'], lookupOf(routers).lookup, context({}), NOON_UTC);

    expect(result.status).toBe('dropped');
    expect(result.reason).toBe('the alert reached more than 50 routers; the alert is dropped');
  });

  it('works with a synchronous lookup and several entry routers', async () => {
    const set = parsedRouter(assigning(['tem_X']));
    const result = await followRouterChain(
      ['rtr_A', 'rtr_B'],
      (id) => ({ id, enabled: true, rules: set, default_receivers: [] }),
      context({}),
      NOON_UTC,
    );

    expect(result.hops.map((hop) => hop.router_id)).toEqual(['rtr_A', 'rtr_B']);
    expect(result.assignments).toEqual([{ receiver: 'tem_X', kind: 'team', delay_ms: 0, router_id: 'rtr_A' }]);
  });
});
