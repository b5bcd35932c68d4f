// What an alert event means for the teams with chat webhooks it was published to (docs/api.md#chat-webhooks):
// - a team the change made an assignee (routing, a hand-off to it, a policy's reassignment) gets a
//   card on each of its chat webhooks, and the alert's chat thread remembers the team;
// - a team the alert belongs to (or that got a card for it before) gets a one-line follow-up for each
//   later change of status or assignee, naming who made it;
// - any other team hears nothing.
// Each delivery's id comes from the event's timeline entry, the team and the webhook's URL, so a
// redelivered event makes none twice (fan-out.ts stores them, deliver.ts tries them).
import type { AlertEventMessage } from '../alerts/alert-events';
import { getAccountUserOfUser, getAccountUsers } from '../account-users/store';
import { alertCardPayload, changeOf, followUpPayload, type CardAlert } from '../chat-cards/messages';
import { consoleLink } from '../http/base-url';
import { derivedUlid, parsePrefixedId, ulidTime } from '../ids';
import { getIntegration } from '../integrations/store';
import { chatWebhooksOf, type TeamRecord } from '../teams/records';
import { getTeams } from '../teams/store';
import { clock } from '../clock';
import { listChatThreadTeams, putChatThread } from './chat-thread-store';
import { newDeliveryState, type ChatDelivery } from './records';

/** The events that make their new assignees' teams a card. */
const ASSIGNING_EVENTS = new Set(['alert.open', 'alert.assigned', 'alert.handoff', 'alert.reassigned']);

function cardAlertOf(message: AlertEventMessage, shown: Record<string, unknown>): CardAlert {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    id: message.alert_id,
    tiny_id: Number(shown.tinyId ?? 0),
    title: text(shown.title),
    description: text(shown.description),
    urgency: text(shown.urgency),
    status: text(shown.status),
  };
}

/** Who made a change (`usr_…`, `int_…`), by name; null for the service itself, or someone since removed. */
async function actorName(accountId: string, by: string | null | undefined): Promise<string | null> {
  const actor = by ? parsePrefixedId(by) : null;
  if (actor?.kind === 'user') return (await getAccountUserOfUser(actor.id, accountId))?.user.name ?? null;
  if (actor?.kind === 'integration') return (await getIntegration(accountId, actor.id))?.name ?? null;
  return null;
}

/** The names of the assignees a change added (teams, account users, users), in its order. */
async function assigneeNames(accountId: string, assigned: string[], known: readonly TeamRecord[]): Promise<string[]> {
  const parsed = assigned.map(parsePrefixedId).filter((p): p is NonNullable<typeof p> => p !== null);
  const ids = (kind: string) => parsed.filter((p) => p.kind === kind).map((p) => p.id);
  const missingTeams = ids('team').filter((id) => !known.some((team) => team.id === id));
  const [teams, accountUsers, users] = await Promise.all([
    missingTeams.length ? getTeams(accountId, missingTeams) : [],
    ids('accountUser').length ? getAccountUsers(accountId, ids('accountUser')) : [],
    Promise.all(ids('user').map((userId) => getAccountUserOfUser(userId, accountId))),
  ]);
  const names = new Map<string, string>();
  for (const team of [...known, ...teams]) names.set(`team:${team.id}`, team.name);
  for (const accountUser of accountUsers) names.set(`accountUser:${accountUser.id}`, accountUser.user.name);
  for (const accountUser of users) if (accountUser) names.set(`user:${accountUser.user_id}`, accountUser.user.name);
  return parsed.flatMap((p) => names.get(`${p.kind}:${p.id}`) ?? []);
}

/** The chat deliveries of an event for the teams (ULIDs) among its subscribers. */
export async function chatDeliveriesOf(
  message: AlertEventMessage,
  teamIds: string[],
  shown: Record<string, unknown>,
): Promise<ChatDelivery[]> {
  const accountId = message.account_id;
  const assigned = new Set(
    (message.assigned ?? []).flatMap((id) => {
      const parsed = parsePrefixedId(id);
      return parsed?.kind === 'team' ? [parsed.id] : [];
    }),
  );
  const assigning = ASSIGNING_EVENTS.has(message.event);
  // Routing's own event only assigns: no team can have had a card for the alert before it.
  const routing = message.action === 'routed';
  const belongs = new Set(message.teams ?? []);
  const threads = routing ? new Set<string>() : await listChatThreadTeams(accountId, message.alert_id);
  const concerned = teamIds.filter((id) => (assigning && assigned.has(id)) || (!routing && (belongs.has(id) || threads.has(id))));
  if (concerned.length === 0) return [];
  const teams = (await getTeams(accountId, concerned)).filter((team) => chatWebhooksOf(team).length > 0);
  const carded = assigning ? teams.filter((team) => assigned.has(team.id)) : [];
  const followed = routing ? [] : teams.filter((team) => !carded.includes(team));
  const change = followed.length > 0 ? changeOf(message.event, await assigneeNames(accountId, message.assigned ?? [], teams)) : null;
  if (carded.length === 0 && change === null) return [];

  const alert = cardAlertOf(message, shown);
  const link = consoleLink(`alerts/${message.alert_id}`);
  const by = change === null ? null : await actorName(accountId, message.actor);
  const delivery = (team: TeamRecord, kind: ChatDelivery['message'], body: (type: ChatDelivery['chat_type']) => unknown) =>
    chatWebhooksOf(team).map((webhook): ChatDelivery => ({
      id: derivedUlid(ulidTime(message.event_id), `chat:${message.event_id}:${team.id}:${webhook.url}`),
      kind: 'chat',
      account_id: accountId,
      team_id: team.id,
      chat_type: webhook.type,
      url: webhook.url,
      message: kind,
      alert_id: message.alert_id,
      event: message.event,
      body: JSON.stringify(body(webhook.type)),
      ...newDeliveryState(clock.now()),
    }));

  await Promise.all(carded.map((team) => putChatThread(accountId, message.alert_id, team.id)));
  return [
    ...carded.flatMap((team) => delivery(team, 'card', (type) => alertCardPayload(type, { alert, team: team.name, link, at: message.at }))),
    ...(change === null
      ? []
      : followed.flatMap((team) => delivery(team, 'follow_up', (type) => followUpPayload(type, { alert, link, change, by })))),
  ];
}
