// List sources over stored collections. Unfiltered lists in creation order (the default newest-first,
// or sorted by id or creation time) are answered with one read of offset+limit objects and the exact
// counter: their cost does not grow with the account's size. Everything else reads the collection.
import type { ListSource } from './engine';
import type { ListQuery } from './query';

/** A stored collection as the areas' stores offer it (lib/store/entity-store.ts `collection`). */
export interface Collection<D> {
  /** Every object, newest first (at most `limit` when given). */
  all(limit?: number): Promise<D[]>;
  /** How many objects there are (the exact counter), when known. */
  size?(): Promise<number | null>;
  /** The first `limit` objects in creation order (oldest first when forward) and the exact total. */
  firstInCreationOrder(forward: boolean, limit: number): Promise<{ items: D[]; total: number }>;
}

const CREATION_ORDER_PATHS = new Set(['id', 'prefix_id', 'created_at', 'createdAt', 'created']);

/** The direction when the query wants the objects in creation order, unfiltered; null otherwise. */
export function inCreationOrder(query: ListQuery): { forward: boolean } | null {
  if (query.filters.length > 0 || query.q) return null;
  if (!query.sort) return { forward: false };
  if (!CREATION_ORDER_PATHS.has(query.sort.path)) return null;
  return { forward: query.sort.direction === 'asc' };
}

export interface CollectionSourceOptions<D> {
  /** A further fast path (an index and a counter for a filter), tried after the unfiltered one. */
  fast?: (query: ListQuery) => Promise<{ page: D[]; total: number } | null>;
}

export function collectionSource<D extends { id: string }>(
  collection: Collection<D>,
  options: CollectionSourceOptions<D> = {},
): ListSource<D> {
  return {
    all: (limit) => collection.all(limit),
    size: collection.size ? () => collection.size!() : undefined,
    async fast(query) {
      const order = inCreationOrder(query);
      if (order) {
        const { items, total } = await collection.firstInCreationOrder(order.forward, query.offset + query.limit);
        return { page: items.slice(query.offset), total };
      }
      return options.fast ? options.fast(query) : null;
    },
  };
}
