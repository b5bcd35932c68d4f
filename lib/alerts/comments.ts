// Comments on an alert: POST/GET /api/v4/alerts/:id/comments.
//   comment      A#<acc>#CMT / <id>        gsi1: A#<acc>#CMT#ALT#<alert id> / <id>
import type { Principal } from '../auth/principal';
import { parseInput } from '../http/validate';
import { newId, prefixId } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery, type ApiInterface, type ListSpec } from '../list/query';
import { V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import { insertEntity, type Entity } from '../store/entities';
import { ENTITY_TYPES, fromItem, partitionOf, queryItems } from '../store/items';
import { findAlert } from './read-alerts';
import { commentInput } from './schemas';

const TYPE = ENTITY_TYPES.comment;

export interface CommentRecord extends Entity {
  id: string;
  account_id: string;
  alert_id: string;
  account_user_id: string;
  text: string;
  created_at: string;
  updated_at: string;
  version: number;
}

const byAlert = (accountId: string, alertId: string) => `${partitionOf(accountId, TYPE)}#ALT#${alertId}`;

export function commentToV4(comment: CommentRecord) {
  return {
    id: comment.id,
    prefix_id: prefixId('comment', comment.id),
    account_id: comment.account_id,
    alert_id: comment.alert_id,
    account_user_id: comment.account_user_id,
    text: comment.text,
    created_at: comment.created_at,
    updated_at: comment.updated_at,
  };
}

const commentListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    alert_id: 'string',
    account_user_id: 'string',
    text: 'string',
  },
  search: ['text'],
};

export async function createComment(principal: Principal, rawAlertId: string, body: unknown): Promise<CommentRecord> {
  const alert = await findAlert(principal, rawAlertId);
  const input = parseInput(commentInput, body);
  const now = new Date().toISOString();
  const comment: CommentRecord = {
    id: newId(),
    account_id: principal.accountId,
    alert_id: alert.id,
    account_user_id: principal.accountUserId,
    text: input.text,
    created_at: now,
    updated_at: now,
    version: 1,
  };
  await insertEntity(TYPE, comment, { indexKeys: { gsi1pk: byAlert(principal.accountId, alert.id), gsi1sk: comment.id } });
  return comment;
}

export async function listComments(principal: Principal, rawAlertId: string, params: URLSearchParams, iface: ApiInterface) {
  const alert = await findAlert(principal, rawAlertId);
  const query = parseListQuery(params, commentListSpec, iface);
  // An alert's comments are few: they are read from its index partition and listed in memory.
  const source = {
    all: async () =>
      (await queryItems(byAlert(principal.accountId, alert.id), { index: 'gsi1', forward: false })).map((item) =>
        fromItem<CommentRecord>(item),
      ),
  };
  return runList(query, source, commentToV4, { search: commentListSpec.search });
}
