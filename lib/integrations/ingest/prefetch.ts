// Reads for a whole queue batch at once: the batch's logs in one BatchGetItem, then the dedup items
// its creates and transitions will need in another, instead of two reads per record. Only a speed-up:
// each prefetched item serves one first read, and every decision taken on it is a conditional write.
import { dedupKey, getDedupItems, type DedupItem } from '../../alerts/dedup-store';
import { parseId } from '../../ids';
import { logRef } from '../../logs/store';
import { whenLoaded } from '../../on-first-use';
import { getEach } from '../../store/entity-store';
import type { AdapterAction } from '../adapters';
import { integrationById } from '../integration-cache';
import { adaptLog } from './adapt-log';
import type { IncomingLog } from './incoming-log';
import type { IngestMessage } from './ingest-queue';

export interface Prefetched {
  /** By log id; null when the log does not exist. */
  logs: Map<string, IncomingLog | null>;
  /** By dedup key (`pk|sk`); null when there is no item yet. */
  dedup: Map<string, DedupItem | null>;
}

export function emptyPrefetch(): Prefetched {
  return { logs: new Map(), dedup: new Map() };
}

function thirdpartyIdsOf(actions: AdapterAction[]): string[] {
  return actions.flatMap((action) => ('thirdpartyId' in action ? [action.thirdpartyId] : []));
}

/**
 * `messages`: the batch's, a carried log (ingest-queue.ts) only where it is the message's first
 * delivery: that log is used as it is, and the others are read.
 */
export async function prefetchBatch(messages: IngestMessage[]): Promise<Prefetched> {
  const prefetched = emptyPrefetch();
  for (const message of messages) if (message.log) prefetched.logs.set(message.log_id, message.log);
  if (messages.length < 2) return prefetched;
  const unread = messages.filter((m) => !m.log);
  const read = unread.length ? ((await getEach(...unread.map((m) => logRef(m.account_id, m.log_id)))) as (IncomingLog | null)[]) : [];
  const readById = new Map(unread.map((m, i) => [m.log_id, read[i]]));
  const dedupKeys: ReturnType<typeof dedupKey>[] = [];
  for (const message of messages) {
    const log = message.log ?? readById.get(message.log_id) ?? null;
    prefetched.logs.set(message.log_id, log);
    if (!log || log.status !== 'pending') continue;
    const integrationId = parseId('integration', log.owner_id);
    const integration = integrationId ? await integrationById(integrationId) : null;
    if (!integration) continue;
    try {
      const actions = await whenLoaded(() => adaptLog(log, integration));
      for (const thirdpartyId of thirdpartyIdsOf(actions)) dedupKeys.push(dedupKey(integration.account_id, integration.id, thirdpartyId));
    } catch {
      // The record's own processing reports it.
    }
  }
  if (dedupKeys.length > 0) {
    for (const [key, item] of await getDedupItems(dedupKeys)) prefetched.dedup.set(key, item);
  }
  return prefetched;
}
