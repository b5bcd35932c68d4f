// Data access for routers (lib/routers/ACCESS-PATTERNS.md).
//   router   A#<acc>#RTR / <id>      (tiny ids: A#<acc>#TINY / RTR)
import { entityStore } from '../store/entity-store';
import type { RouterRecord } from './records';

const routers = entityStore<RouterRecord>({ kind: 'router', audit: { objectType: 'router' } });

export const getRouter = routers.get;
export const getRouters = routers.getMany;
export const routerRef = routers.ref;
export const nextRouterTinyId = routers.nextTinyId;
export const routerCollection = routers.collection;
export const removeRouter = routers.remove;

/** Saves a record whose version the caller raised by one; false when another write came first. */
export const saveRouter = (record: RouterRecord) => routers.save(record);

export async function insertRouter(record: RouterRecord): Promise<void> {
  if (!(await routers.insert(record))) throw new Error(`router ${record.id} already exists`);
}
