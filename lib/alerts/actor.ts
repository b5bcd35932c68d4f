// The caller of a request as the actor of an alert change.
import type { Principal } from '../http/principal';
import type { Actor } from './records';

export function actorOf(principal: Principal): Actor {
  return { type: 'AccountUser', accountUserId: principal.accountUserId, userId: principal.userId };
}
