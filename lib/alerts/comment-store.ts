// Data access for comments on alerts (lib/alerts/ACCESS-PATTERNS.md).
//   comment      A#<acc>#CMT / <id>        gsi1: A#<acc>#CMT#ALT#<alert id> / <id>
import { entityStore } from '../store/entity-store';
import type { CommentRecord } from './records';

const byAlert = (accountId: string, alertId: string) => `A#${accountId}#CMT#ALT#${alertId}`;

const comments = entityStore<CommentRecord>({
  kind: 'comment',
  indexKeys: (comment) => ({ gsi1pk: byAlert(comment.account_id, comment.alert_id), gsi1sk: comment.id }),
});

export const insertComment = comments.insert;

/** An alert's comments, newest first (they are few: listed in memory). */
export async function listCommentsOfAlert(accountId: string, alertId: string): Promise<CommentRecord[]> {
  return comments.query(byAlert(accountId, alertId), { index: 'gsi1', forward: false });
}
