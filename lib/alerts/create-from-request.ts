// POST /api/v4/alerts and POST /alert (and the /broadcast and /incident views, and Slack's /oncall
// page): the interface's input validated and its destinations resolved, then the alert created as
// every other one is (./create-alert.ts insertNewAlert).
import { requireRole } from '../auth/permissions';
import { withoutNulls } from '../http/changes';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import type { EntityKind } from '../ids';
import { actorOf } from './actor';
import { insertNewAlert } from './create-alert';
import { resolveEarlierDestinations, resolveV4Destinations } from './destinations';
import type { AlertRecord } from './records';
import { earlierCreateInput, v4CreateInput, v4DestinationCheck } from './schemas';

/** `options.id`: the alert's id when the request names it (a Slack command: a repeat finds its alert). */
export async function createAlertV4(principal: Principal, body: unknown, options: { id?: string } = {}): Promise<AlertRecord> {
  const input = parseInput(v4CreateInput, body, v4DestinationCheck);
  const destinations = await resolveV4Destinations(principal.accountId, input);
  const { alert } = await insertNewAlert(
    principal.accountId,
    {
      title: input.title,
      description: input.description ?? undefined,
      urgency: input.urgency,
      tag_list: input.tag_list ?? input.tags,
      thirdparty_id: input.thirdparty_id ?? null,
      meta: withoutNulls(input.meta),
      ...destinations,
    },
    actorOf(principal),
    options,
  );
  return alert;
}

export interface EarlierCreateOptions {
  subtype?: string;
  /** Meta every alert of the view carries (the incident view sets meta.incident). */
  meta?: Record<string, unknown>;
  /** The destination kinds the endpoint takes (broadcasts and incidents: users and teams). */
  kinds?: EntityKind[];
}

export async function createAlertEarlier(principal: Principal, body: unknown, options: EarlierCreateOptions = {}): Promise<AlertRecord> {
  const input = parseInput(earlierCreateInput, body);
  const destinations = await resolveEarlierDestinations(principal.accountId, input.destination_ids, { kinds: options.kinds });
  const { alert } = await insertNewAlert(
    principal.accountId,
    {
      title: input.title,
      description: input.description ?? undefined,
      urgency: input.urgency ?? 'medium',
      tag_list: input.tags,
      thirdparty_id: input.thirdparty_id ?? null,
      meta: withoutNulls({ ...input.meta, ...options.meta }),
      subtype: options.subtype ?? input.subtype,
      ...destinations,
    },
    actorOf(principal),
  );
  return alert;
}

const VIEW_DESTINATIONS: EntityKind[] = ['team', 'user', 'accountUser'];

/** POST /broadcast (docs/api.md#broadcasts): a broadcast alert; needs the admin or broadcaster role (docs/api.md#roles). */
export async function createBroadcast(principal: Principal, body: unknown): Promise<AlertRecord> {
  requireRole(principal, ['admin', 'broadcaster'], 'send broadcasts');
  return createAlertEarlier(principal, body, { subtype: 'broadcast', kinds: VIEW_DESTINATIONS });
}

/** POST /incident (docs/api.md#broadcasts): an alert with meta.incident set. */
export async function createIncident(principal: Principal, body: unknown): Promise<AlertRecord> {
  return createAlertEarlier(principal, body, { meta: { incident: true }, kinds: VIEW_DESTINATIONS });
}
