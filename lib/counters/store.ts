// The sweeper's place in its walk through the counters (lib/counters/repair-counters.ts).
//   cursor   SYSTEM / RECOUNT#CURSOR   {account_id, type}: the counter item repaired last
import { getItem, putItem } from '../store/items';
import { nowIso } from '../clock';

const CURSOR_KEY = { pk: 'SYSTEM', sk: 'RECOUNT#CURSOR' };

export interface RecountCursor {
  account_id: string;
  type: string;
}

export async function getRecountCursor(): Promise<RecountCursor | null> {
  const item = await getItem(CURSOR_KEY);
  return item ? { account_id: String(item.account_id), type: String(item.type) } : null;
}

export async function saveRecountCursor(cursor: RecountCursor): Promise<void> {
  await putItem({ ...CURSOR_KEY, ...cursor, updated_at: nowIso() });
}
