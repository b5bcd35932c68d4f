// Who wants to hear about the account's alert changes (lib/alerts/ACCESS-PATTERNS.md): one small item
// per subscriber with the events it wants.
//   subscriber   A#<acc>#ALERT#SUB / <subscriber id>   {events}
// A subscriber is an enabled outgoing webhook integration (its ULID), a team with chat webhooks
// (`tem_<ULID>`) or the account's Slack connection (`slack`). This folder sits below the areas that
// write it (integrations, teams, slack) and the one that reads it (alerts), so none of them has to
// import another.
import { deleteItem, putItem, queryItems } from '../store/items';

const partition = (accountId: string) => `A#${accountId}#ALERT#SUB`;

export interface AlertEventSubscriber {
  id: string;
  events: string[];
}

/** Sets (or, with null, removes) one subscriber. */
export async function putAlertEventSubscriber(accountId: string, subscriberId: string, events: string[] | null): Promise<void> {
  if (events === null) await deleteItem({ pk: partition(accountId), sk: subscriberId });
  else await putItem({ pk: partition(accountId), sk: subscriberId, events });
}

export async function listAlertEventSubscribers(accountId: string): Promise<AlertEventSubscriber[]> {
  const items = await queryItems(partition(accountId));
  return items.map((item) => ({ id: String(item.sk), events: (item.events as string[]) ?? [] }));
}
