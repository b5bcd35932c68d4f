// Entry point: the sweeper (every minute deployed; a timer locally, and once at start-up of the local
// runtime). Flow: scheduled event → re-send pending inbound requests that waited too long
// (lib/integrations/ingest/sweep-pending) → re-drive alerts never routed (lib/alerts/sweep-unrouted)
// → re-drive outgoing webhook deliveries whose queue message was lost
// (lib/outgoing-webhooks/sweep-deliveries) → run the escalation steps and storm flushes whose timers
// are late (lib/escalation/sweep) → run broadcast timers whose message was lost
// (lib/broadcasts/sweep-broadcasts) → tell teams' recipients who went on call (lib/escalation/going-oncall)
// → run Slack team message syncs whose retry is due (lib/slack/sweep-team-messages) → judge the
// heartbeats whose deadline came (lib/integrations/sweep-heartbeats) → once a week, tell teams'
// admins of the coming week's coverage gaps (lib/escalation/coverage-gap-notice) → repair one counter
// item (lib/counters) → check and start the canary (lib/monitoring/canary). `{ redrive: 'all' }`
// (local start-up) re-sends every
// pending request, unrouted alert and delivery at once and re-arms every escalation timer, since the
// embedded queue lost their messages. Each duty runs even if another fails: it is logged and tried
// again next minute.
import { ContextSlot } from '../../lib/async-context';
import { redriveUnroutedAlerts, sweepUnroutedAlerts } from '../../lib/alerts/sweep-unrouted';
import { sweepBroadcasts } from '../../lib/broadcasts/sweep-broadcasts';
import { repairNextCounter } from '../../lib/counters/recount-counters';
import { sweepOncallChanges } from '../../lib/escalation/going-oncall';
import { sweepEscalations } from '../../lib/escalation/sweep';
import { redrivePendingLogs, sweepPendingLogs } from '../../lib/integrations/ingest/sweep-pending';
import { config } from '../../lib/config';
import { sweepHeartbeats } from '../../lib/integrations/sweep-heartbeats';
import { logger } from '../../lib/log';
import { flushedAtEnd } from '../../lib/metrics';
import { sweepPendingDeliveries } from '../../lib/outgoing-webhooks/sweep-deliveries';
import { sweepTeamMessages } from '../../lib/slack/sweep-team-messages';
import { loadOnce } from '../../lib/load-once';

const loadMonitoringCanary = /* @__PURE__ */ loadOnce(() => import('../../lib/monitoring/canary'));
const loadAuditEventsRecoverAuditEvents = /* @__PURE__ */ loadOnce(() => import('../../lib/audit-events/recover-audit-events'));
const loadEscalationCoverageGapNotice = /* @__PURE__ */ loadOnce(() => import('../../lib/escalation/coverage-gap-notice'));

/** The duty a call of the sweeper belongs to (its name below): the alert-life benchmark shows the
 * duties that run every minute whatever the alerts apart from an alert's own steps. */
export const sweeperDuty = new ContextSlot<string>('sweeper duty');

/** The canary's code (alert creation, resolve) loads on first use: a deployment without a canary never loads it. */
async function runCanaryIfConfigured() {
  if (!config().CANARY_TEAM_ID) return { canary: 'off' as const };
  return (await loadMonitoringCanary()).runCanary();
}

async function duty<T>(name: string, run: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await sweeperDuty.run(name, run);
  } catch (error) {
    logger.error(`sweeper: ${name} failed`, { error: error as Error });
    return { error: (error as Error).message };
  }
}

export const handler = flushedAtEnd(async (event?: { redrive?: string; startedAt?: number }) => {
  const startup = event?.redrive === 'all';
  const [inbound, unrouted, webhooks, escalations, broadcasts, oncall, slack, heartbeats, audit, gaps, counters, canary] =
    await Promise.all([
      duty('inbound requests', () => (startup ? redrivePendingLogs(event?.startedAt) : sweepPendingLogs())),
      duty('unrouted alerts', () => (startup ? redriveUnroutedAlerts(event?.startedAt) : sweepUnroutedAlerts())),
      duty('webhook deliveries', () => sweepPendingDeliveries({ all: startup })),
      duty('escalation timers', () => sweepEscalations({ startup })),
      duty('broadcast timers', () => sweepBroadcasts({ startup })),
      duty('on-call changes', () => sweepOncallChanges()),
      duty('Slack team messages', () => sweepTeamMessages()),
      duty('heartbeats', () => sweepHeartbeats()),
      // Loaded when the sweeper first runs it: the trail's code is not the sweeper's start.
      duty('audit events', async () => (await loadAuditEventsRecoverAuditEvents()).sweepAuditEvents()),
      // Weekly work: its code loads with the first sweep that runs it, not with the sweeper's start.
      startup ? null : duty('coverage gaps', async () => (await loadEscalationCoverageGapNotice()).sweepCoverageGaps()),
      startup ? null : duty('counters', () => repairNextCounter()),
      startup ? null : duty('canary', runCanaryIfConfigured),
    ]);
  if ('due' in inbound && inbound.due > 0)
    logger.info(startup ? 'start-up: pending inbound requests re-driven' : 'sweeper: pending inbound requests re-sent', { ...inbound });
  if ('due' in unrouted && unrouted.due > 0)
    logger.info(startup ? 'start-up: unrouted alerts re-driven' : 'sweeper: unrouted alerts re-driven', { ...unrouted });
  if ('due' in webhooks && webhooks.due > 0) logger.info('sweeper: webhook deliveries re-driven', { ...webhooks });
  if ('due' in escalations && escalations.due > 0) logger.info('sweeper: late escalation timers run', { ...escalations });
  if ('due' in broadcasts && broadcasts.due > 0) logger.info('sweeper: late broadcast timers run', { ...broadcasts });
  if ('changed' in oncall && oncall.changed > 0) logger.info('sweeper: on-call changes told', { ...oncall });
  if ('due' in slack && slack.due > 0) logger.info('sweeper: Slack team messages synced', { ...slack });
  if ('due' in heartbeats && heartbeats.opened + heartbeats.resolved > 0) logger.info('sweeper: heartbeats judged', { ...heartbeats });
  if (gaps && 'teams' in gaps) logger.info('sweeper: weekly coverage gaps checked', { ...gaps });
  if ('due' in audit && audit.due > 0) logger.warn('sweeper: audit events left by an unfinished write settled', { ...audit });
  return { inbound, unrouted, webhooks, escalations, broadcasts, oncall, slack, heartbeats, audit, gaps, counters, canary };
});
