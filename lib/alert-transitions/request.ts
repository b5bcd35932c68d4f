// Who asks for an alert transition, under which interface's rules, and how a repeat of the same
// request is recognised (docs/api.md#alert-transitions).
import { newId } from '../ids';
import type { Actor } from '../alerts/records';

/** Whose rules decide which statuses an action starts from: the v4 or the earlier interface's, or an
 * integration's (a webhook's acknowledge and resolve). */
export type TransitionRules = 'v4' | 'earlier' | 'integration';

export interface TransitionRequest {
  /** A person (through the API, a one-click link, an SMS reply, Slack) or an integration. */
  actor: Actor;
  rules: TransitionRules;
  /**
   * Names the request, so the same request delivered twice makes one transition: a redelivered Slack
   * interaction (`slack:<team>:<action_ts>`), an SMS reply SNS sends again (`sms:<message id>`). The
   * transition writes it with its change; a second call with the same key changes nothing and answers
   * the alert as the first one left it. At most 200 characters. Absent: every call is a request of its
   * own (the API, a click).
   */
  idempotencyKey?: string;
}

/** One call of a transition: the request's key and an id of this call alone (lib/alerts/store.ts
 * changeStatus tells its own lost answer from a repeat by it). */
export function callOf(request: TransitionRequest): { key: string; call: string } {
  const call = newId();
  return { key: request.idempotencyKey ?? call, call };
}
