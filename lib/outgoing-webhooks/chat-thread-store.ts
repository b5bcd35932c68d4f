// Which teams got a card for an alert (lib/outgoing-webhooks/ACCESS-PATTERNS.md), so their follow-ups
// go out even when the alert no longer names them (the second team of a policy's reassignment, a team
// the alert was handed off from).
//   chat thread   A#<acc>#CHAT#<alert id> / <team id>
import { putItem, queryItems } from '../store/items';

const partition = (accountId: string, alertId: string) => `A#${accountId}#CHAT#${alertId}`;

/** Idempotent: a redelivered event writes the same item again. */
export async function putChatThread(accountId: string, alertId: string, teamId: string): Promise<void> {
  await putItem({ pk: partition(accountId, alertId), sk: teamId });
}

export async function listChatThreadTeams(accountId: string, alertId: string): Promise<Set<string>> {
  const items = await queryItems(partition(accountId, alertId));
  return new Set(items.map((item) => String(item.sk)));
}
