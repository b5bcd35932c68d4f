// dedup_count of an alert (docs/api.md#deduplication): raised, never lowered, once per inbound
// request that turned out to be a duplicate of it, with a timeline entry of that request.
import { nowIso } from '../clock';
import { parseId, prefixId, ulidTime } from '../ids';
import type { Actor, AlertRecord } from './records';
import { getAlert, raiseDedup } from './store';
import { derivedUlid, recordTimeline } from './timeline';

/**
 * dedup_count = max(dedup_count, atLeast) by a conditional write (idempotent for redeliveries),
 * plus a timeline log. `logId` (ULID or `log_…`) names the inbound request that was the duplicate:
 * its timeline entry then has an id derived from it, so a redelivery writes it at most once.
 */
export async function raiseDedupCount(accountId: string, alertId: string, atLeast: number, logId?: string): Promise<AlertRecord | null> {
  const now = nowIso();
  let raised = await raiseDedup(accountId, alertId, atLeast, now);
  let alert = raised ?? (await getAlert(accountId, alertId));
  if (!raised && alert && alert.dedup_count < atLeast) {
    // Not there at the raise and stored since (its creation was under way): raised now. A raise is a
    // max, so this one is safe whoever else raises it meanwhile.
    raised = await raiseDedup(accountId, alertId, atLeast, now);
    alert = raised ?? (await getAlert(accountId, alertId));
  }
  if (!alert) return null;
  const inbound = logId ? parseId('log', logId) : null;
  if (raised || inbound) {
    const actor: Actor | undefined =
      alert.source_type === 'Integration' ? { type: 'Integration', integrationId: alert.source_id } : undefined;
    await recordTimeline({
      alert,
      action: 'deduplicated',
      actor,
      oldStatus: alert.status,
      newStatus: alert.status,
      time: now,
      details: { dedup_count: Math.max(alert.dedup_count, atLeast), log_id: inbound ? prefixId('log', inbound) : null },
      id: inbound ? derivedUlid(ulidTime(inbound), `dedup:${alertId}:${inbound}`) : undefined,
    });
  }
  return alert;
}
