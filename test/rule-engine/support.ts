// Helpers of the rule engine tests: rule sets written as YAML text, the way they are saved.
import { stringify } from 'yaml';
import { expect } from 'vitest';
import type { RouterDefinition, RoutingContext } from '../../lib/rule-engine';
import { buildRoutingContext, evaluateRouter, parseNotificationRules, parseRouterRules } from '../../lib/rule-engine';

export const NOON_UTC = Date.UTC(2024, 5, 3, 12, 0); // Monday 3 June 2024, 12:00 UTC

export function routerYaml(rules: unknown[]): string {
  return stringify({ rules });
}

export function parsedRouter(text: string) {
  const parsed = parseRouterRules(text);
  if (!parsed.ok) throw new Error(`router rules did not parse: ${parsed.messages.join('; ')}`);
  return parsed.value;
}

export function parsedNotificationRules(text: string) {
  const parsed = parseNotificationRules(text);
  if (!parsed.ok) throw new Error(`notification rules did not parse: ${parsed.messages.join('; ')}`);
  return parsed.value;
}

export function router(text: string, defaults: string[] = ['tem_DEFAULT'], enabled = true): RouterDefinition {
  return { id: 'rtr_TEST', enabled, rules: parsedRouter(text), default_receivers: defaults };
}

export function context(alert: Record<string, unknown>, data: unknown = {}, headers: Record<string, unknown> = {}): RoutingContext {
  return buildRoutingContext({ alert, log: { data, headers } });
}

/** Whether `match` (a query object, saved as YAML) holds for the context at `now`. */
export function holds(match: Record<string, unknown>, ctx: RoutingContext, now = NOON_UTC): boolean {
  const text = routerYaml([{ match, actions: [{ type: 'assign', receiver: 'tem_MATCHED' }] }]);
  const plan = evaluateRouter(router(text), ctx, now);
  return plan.outcome === 'matched';
}

/** The fault messages of router YAML that must not parse. */
export function routerFaults(text: string): string[] {
  const parsed = parseRouterRules(text);
  expect(parsed.ok).toBe(false);
  return parsed.ok ? [] : parsed.messages;
}

export function notificationFaults(text: string): string[] {
  const parsed = parseNotificationRules(text);
  expect(parsed.ok).toBe(false);
  return parsed.ok ? [] : parsed.messages;
}
