// Automations that a router's rule named for an alert (docs/api.md#automations): each runs at most once per
// alert, router, rule and automation, whatever the redeliveries (a claim item is written before the
// run), and each run is on the alert's timeline (which automation, its status, the run's log).
import type { AlertRecord } from '../alerts/records';
import { derivedUlid, recordTimeline } from '../alerts/timeline';
import { getAutomation } from '../automations/store';
import { parseId, prefixId } from '../ids';
import { logger } from '../log';
import type { RoutingContext } from '../rule-engine';
import { claimAutomationRun } from './routing-store';
import { nowIso } from '../clock';
import { loadOnce } from '../load-once';

const loadAutomationsRunAutomation = /* @__PURE__ */ loadOnce(() => import('../automations/run-automation'));

export async function runRoutedAutomations(alert: AlertRecord, context: RoutingContext | null): Promise<void> {
  const automations = alert.routing?.automations ?? [];
  const base = Date.parse(alert.routed_at ?? alert.updated_at);
  // Side by side: each may take its full 10 s, and the worker's time is bounded.
  await Promise.all(
    automations.map(async (item, index) => {
      const automationId = parseId('automation', item.id);
      const claim = `${alert.id}#${item.router_id}#${item.rule_index}#${automationId ?? item.id}`;
      if (!(await claimAutomationRun(alert.account_id, claim, nowIso()))) return;
      const details: Record<string, unknown> = {
        automation_id: automationId ? prefixId('automation', automationId) : item.id,
        router_id: item.router_id,
      };
      try {
        const record = automationId ? await getAutomation(alert.account_id, automationId) : null;
        if (!record) details.skipped = 'unknown automation';
        else if (!record.enabled) details.skipped = 'automation disabled';
        else {
          // Few routers run automations: the run (its YAML settings, templates and outbound client) loads with the first.
          const { performAutomation } = await loadAutomationsRunAutomation();
          const outcome = await performAutomation(record, {
            kind: 'router',
            alertId: alert.id,
            routerId: item.router_id,
            ruleIndex: item.rule_index,
            context: context ?? { always: true, alert: {}, log: { data: {}, headers: {} }, log_parsed: false },
          });
          Object.assign(details, { status: outcome.status, log_id: prefixId('log', outcome.log.id), refused: outcome.refusal });
        }
      } catch (error) {
        details.error = error instanceof Error ? error.message : String(error);
        logger.warn('routing: automation failed', { alertId: alert.id, automation: item.id, error: error as Error });
      }
      await recordTimeline({
        alert,
        action: 'automation',
        oldStatus: alert.status,
        newStatus: alert.status,
        time: nowIso(),
        details,
        id: derivedUlid(base + 100 + index, `route:${alert.id}:automation:${index}`),
      });
    }),
  );
}
