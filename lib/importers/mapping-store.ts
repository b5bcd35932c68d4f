// What an import made, per source object (lib/importers/ACCESS-PATTERNS.md): a second run finds
// here the object it made for a source id and updates it instead of making another.
//   A#<acc>#IMPORT / <source>#<kind>#<source id>   {our_id, parts?: {<key>: <our id>}, name, updated_at}
// `parts` holds the objects one source object became (a schedule's events, by their stable keys).
import { nowIso } from '../clock';
import { fromItem, putItem, queryAll } from '../store/items';
import type { SourceName } from './source-model';

export type MappedKind = 'user' | 'team' | 'schedule' | 'escalation-policy' | 'integration';

export interface ImportMapping {
  source: SourceName;
  kind: MappedKind;
  source_id: string;
  our_id: string;
  name: string;
  /** Further objects the source object became: stable key → our id. */
  parts: Record<string, string>;
  updated_at: string;
}

const partition = (accountId: string) => `A#${accountId}#IMPORT`;
const sortKey = (source: SourceName, kind: MappedKind, sourceId: string) => `${source}#${kind}#${sourceId}`;

/** Every mapping of one source in the account, by `<kind>#<source id>`. */
export async function readMappings(accountId: string, source: SourceName): Promise<Map<string, ImportMapping>> {
  const mappings = new Map<string, ImportMapping>();
  for await (const item of queryAll(partition(accountId), { skBeginsWith: `${source}#` })) {
    const mapping = fromItem<ImportMapping>(item);
    mappings.set(`${mapping.kind}#${mapping.source_id}`, mapping);
  }
  return mappings;
}

export async function saveMapping(accountId: string, mapping: Omit<ImportMapping, 'updated_at'>): Promise<void> {
  await putItem({
    pk: partition(accountId),
    sk: sortKey(mapping.source, mapping.kind, mapping.source_id),
    ...mapping,
    updated_at: nowIso(),
  });
}
