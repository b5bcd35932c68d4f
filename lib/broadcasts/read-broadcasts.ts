// Reading broadcasts (everyone in the account): one by id and the account's list, each with its
// answers (one Query per broadcast, whose items also give the options' counts).
import { mapInTurns } from '../in-turns';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery, type ApiInterface } from '../list/query';
import { collectionSource } from '../list/sources';
import type { BroadcastRecord, BroadcastView } from './records';
import { broadcastListSpec, broadcastToV4 } from './represent';
import { broadcastCollection, getBroadcast, listResponses } from './store';

const CONCURRENCY = 16;

export async function withResponses(record: BroadcastRecord): Promise<BroadcastView> {
  return { ...record, responses: await listResponses(record.account_id, record.id) };
}

async function allWithResponses(records: BroadcastRecord[]): Promise<BroadcastView[]> {
  return mapInTurns(records, CONCURRENCY, withResponses);
}

/** The stored broadcast (no answers), else NotFound: another account's is absent too. */
export async function findBroadcastRecord(principal: Principal, rawId: string): Promise<BroadcastRecord> {
  const id = parseId('broadcast', rawId);
  const record = id ? await getBroadcast(principal.accountId, id) : null;
  if (!record) throw new NotFound('Broadcast not found');
  return record;
}

export async function findBroadcast(principal: Principal, rawId: string): Promise<BroadcastView> {
  return withResponses(await findBroadcastRecord(principal, rawId));
}

export async function listBroadcasts<Iface extends ApiInterface>(principal: Principal, params: URLSearchParams, iface: Iface) {
  const query = parseListQuery(params, broadcastListSpec, iface);
  const collection = broadcastCollection(principal.accountId);
  const source = collectionSource<BroadcastView>({
    all: async () => allWithResponses(await collection.all()),
    firstInCreationOrder: async (forward, limit) => {
      const { items, total } = await collection.firstInCreationOrder(forward, limit);
      return { items: await allWithResponses(items), total };
    },
  });
  return runList(query, source, broadcastToV4, { search: broadcastListSpec.search });
}
