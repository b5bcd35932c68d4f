// A list source over one entity type's partition in an account. Unfiltered lists in creation order
// (the default newest-first, or sorted by id or creation time) are answered with one Query of
// offset+limit items and the type's exact counter: their cost does not grow with the account's size.
import type { ListSource } from '../list/engine';
import type { ListQuery } from '../list/query';
import { readCounts } from './counters';
import { fromItem, partitionOf, queryItems, type EntityType, type Item } from './items';

const CREATION_ORDER_PATHS = new Set(['id', 'prefix_id', 'created_at', 'createdAt', 'created']);

export function inCreationOrder(query: ListQuery): { forward: boolean } | null {
  if (query.filters.length > 0 || query.q) return null;
  if (!query.sort) return { forward: false };
  if (!CREATION_ORDER_PATHS.has(query.sort.path)) return null;
  return { forward: query.sort.direction === 'asc' };
}

export interface PartitionSourceOptions<D> {
  /** Turns a stored item into the domain object (default: the item without its keys). */
  decode?: (item: Item) => D;
  /** A further fast path (an index and a counter for a filter), tried before reading everything. */
  fast?: (query: ListQuery) => Promise<{ page: D[]; total: number } | null>;
  /** Keeps only some objects of the partition (e.g. the caller's own keys). Disables the counter path. */
  keep?: (object: D) => boolean;
}

export function partitionSource<D extends { id: string }>(
  accountId: string,
  type: EntityType,
  options: PartitionSourceOptions<D> = {},
): ListSource<D> {
  const decode = options.decode ?? ((item: Item) => fromItem<D>(item));
  const partition = partitionOf(accountId, type);
  return {
    async all() {
      const objects = (await queryItems(partition, { forward: false })).map(decode);
      return options.keep ? objects.filter(options.keep) : objects;
    },
    async fast(query) {
      if (options.keep) return null;
      const order = inCreationOrder(query);
      if (order) {
        const [items, counts] = await Promise.all([
          queryItems(partition, { forward: order.forward, limit: query.offset + query.limit }),
          readCounts(accountId, type),
        ]);
        return { page: items.slice(query.offset).map(decode), total: counts.total ?? 0 };
      }
      return options.fast ? options.fast(query) : null;
    },
  };
}
