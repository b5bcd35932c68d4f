// POST /api/v4/alerts/:id/comments: a comment by the caller on an alert of the account.
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { insertComment } from './comment-store';
import { findAlert } from './read-alerts';
import type { CommentRecord } from './records';
import { commentInput } from './schemas';
import { newEntity } from '../store/entity-store';

export async function createComment(principal: Principal, rawAlertId: string, body: unknown): Promise<CommentRecord> {
  const alert = await findAlert(principal, rawAlertId);
  const input = parseInput(commentInput, body);
  const comment: CommentRecord = {
    ...newEntity(principal.accountId),
    alert_id: alert.id,
    account_user_id: principal.accountUserId,
    text: input.text,
  };
  await insertComment(comment);
  return comment;
}
