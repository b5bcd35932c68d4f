// The caller of a request as the actor of an alert change, and how logs and events name an actor.
import type { Principal } from '../http/principal';
import { prefixId } from '../ids';
import type { Actor } from './records';

/** The prefix id that names an actor in logs and in acknowledgedby/resolvedby/archivedby. */
export function actorPrefixId(actor: Actor): string {
  return actor.type === 'AccountUser' ? prefixId('user', actor.userId) : prefixId('integration', actor.integrationId);
}

export function actorOf(principal: Principal): Actor {
  return { type: 'AccountUser', accountUserId: principal.accountUserId, userId: principal.userId };
}
