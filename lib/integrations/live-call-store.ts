// Data access for live calls (lib/integrations/ACCESS-PATTERNS.md, "Live calls"): a number's pointer
// to the one live_call integration it is bound to, read by the SIP media function with the number
// called (one GetItem). A number belongs to the deployment, not to an account: one integration at a
// time holds it.
//   pointer   LIVECALL#<E.164 number> / LIVECALL   {account_id, integration_id}
import { DeleteCommand, PutCommand } from '../store/commands';
import { db, tableName } from '../store/client';
import { getItem, isConditionFailure } from '../store/items';

const numberKey = (phoneNumber: string) => ({ pk: `LIVECALL#${phoneNumber}`, sk: 'LIVECALL' });

/** Binds the number to the integration; false when another integration holds it. */
export async function claimLiveCallNumber(phoneNumber: string, accountId: string, integrationId: string): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...numberKey(phoneNumber), account_id: accountId, integration_id: integrationId },
        ConditionExpression: 'attribute_not_exists(pk) OR integration_id = :id',
        ExpressionAttributeValues: { ':id': integrationId },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Unbinds the number if this integration still holds it. */
export async function releaseLiveCallNumber(phoneNumber: string, integrationId: string): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: numberKey(phoneNumber),
        ConditionExpression: 'integration_id = :id',
        ExpressionAttributeValues: { ':id': integrationId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** The integration the number is bound to, or null. */
export async function findLiveCallNumber(phoneNumber: string): Promise<{ accountId: string; integrationId: string } | null> {
  const item = await getItem(numberKey(phoneNumber));
  if (typeof item?.account_id !== 'string' || typeof item.integration_id !== 'string') return null;
  return { accountId: item.account_id, integrationId: item.integration_id };
}
