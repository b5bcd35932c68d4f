// The keys senders already hold for an integration made by an importer (lib/importers): Opsgenie's
// API key, PagerDuty's integration key. An item per key, by its SHA-256 alone (the key is a secret of
// the sender's configuration, never stored):
//   sender key      SENDERKEY#<sha256 hex> / #   {integration_id, account_id, source}
// An integration's deletion leaves its items: a key whose integration is gone names nothing.
import { getItem, isConditionFailure } from '../store/items';
import { db, tableName } from '../store/client';
import { PutCommand } from '../store/commands';

const senderKeyKey = (hash: string) => ({ pk: `SENDERKEY#${hash}`, sk: '#' });

export interface SenderKeyRecord {
  integration_id: string;
  account_id: string;
  /** The service the key comes from (`opsgenie`, `pagerduty`). */
  source: string;
}

export async function getSenderKey(hash: string): Promise<SenderKeyRecord | null> {
  const item = await getItem(senderKeyKey(hash));
  return item ? { integration_id: String(item.integration_id), account_id: String(item.account_id), source: String(item.source) } : null;
}

/**
 * Points the key at an integration, unless it points at an integration of another account
 * (`replaceable` says whether the present holder may be replaced: its integration is gone): false then.
 */
export async function putSenderKey(
  hash: string,
  record: SenderKeyRecord,
  replaceable: (holder: SenderKeyRecord) => Promise<boolean>,
): Promise<boolean> {
  const holder = await getSenderKey(hash);
  if (holder && holder.account_id !== record.account_id && !(await replaceable(holder))) return false;
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...senderKeyKey(hash), ...record },
        ...(holder
          ? { ConditionExpression: 'integration_id = :was', ExpressionAttributeValues: { ':was': holder.integration_id } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
