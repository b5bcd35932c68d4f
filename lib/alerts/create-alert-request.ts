// POST /api/v4/alerts and POST /alert (and the /broadcast and /incident views): validate the
// interface's input, resolve its destinations in the caller's account, then create the alert
// through the one core path (insertNewAlert).
import type { Principal } from '../auth/principal';
import type { EntityKind } from '../ids';
import { actorOf } from './actor';
import { insertNewAlert, withoutNulls } from './create-alert';
import { resolveEarlierDestinations, resolveV4Destinations } from './destinations';
import type { AlertRecord } from './records';
import { earlierCreateInput, parseWith, v4CreateInput, v4DestinationCheck } from './schemas';

export async function createAlertV4(principal: Principal, body: unknown): Promise<AlertRecord> {
  const input = parseWith(v4CreateInput, body, v4DestinationCheck);
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
  const input = parseWith(earlierCreateInput, body);
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
