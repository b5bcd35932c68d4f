// Data access for interactions already taken (lib/slack/ACCESS-PATTERNS.md):
//   taken   A#<acc>#SLACKACT / <interaction key>   {outcome}, expires (TTL) after a day
// The claim is a conditional put: of two deliveries of one click, one takes it.
import { putNew } from '../store/items';
import { TTL_ATTRIBUTE } from '../store/table';
import type { InteractionMark } from './records';

const key = (accountId: string, interactionKey: string) => ({ pk: `A#${accountId}#SLACKACT`, sk: interactionKey });

/** True when this call took the interaction; false when it was taken before. */
export function takeInteraction(mark: InteractionMark): Promise<boolean> {
  return putNew({ ...key(mark.account_id, mark.key), ...mark, [TTL_ATTRIBUTE]: mark.expires_at });
}
