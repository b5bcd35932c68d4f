// The v4 representation of a broadcast (api-v4.md "Broadcast", docs/api.md#broadcasts): its response
// options in position order, each with the number of people whose answer it is now (derived from the
// answers read with it), and the answers themselves, oldest first.
import { prefixId } from '../ids';
import { V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { ListSpec } from '../list/query';
import type { BroadcastView } from './records';
import type * as z from 'zod';
import type { BroadcastV4 } from './schemas';

export function broadcastToV4(view: BroadcastView): z.input<typeof BroadcastV4> {
  const counts = new Map<string, number>();
  for (const response of view.responses) {
    counts.set(response.broadcast_response_option_id, (counts.get(response.broadcast_response_option_id) ?? 0) + 1);
  }
  const responses = [...view.responses].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    id: view.id,
    prefix_id: prefixId('broadcast', view.id),
    account_id: view.account_id,
    tiny_id: view.tiny_id,
    title: view.title,
    description: view.description,
    tag_list: [...view.tag_list],
    destination_team_ids: [...view.destination_team_ids],
    destination_account_user_ids: [...view.destination_account_user_ids],
    status: view.status,
    response_requested: view.response_requested,
    response_requested_by: view.response_requested_by,
    broadcast_response_options: [...view.response_options]
      .sort((a, b) => a.position - b.position)
      .map((option) => ({
        id: option.id,
        value: option.value,
        position: option.position,
        broadcast_responses_count: counts.get(option.id) ?? 0,
      })),
    broadcast_responses: responses.map((response) => ({
      id: response.id,
      prefix_id: prefixId('response', response.id),
      account_user_id: response.account_user_id,
      broadcast_response_option_id: response.broadcast_response_option_id,
      channel: response.channel,
      created_at: response.created_at,
    })),
    source_id: view.created_by,
    source_type: 'AccountUser' as const,
    sent_at: view.sent_at,
    closed_at: view.closed_at,
    created_at: view.created_at,
    updated_at: view.updated_at,
  };
}

export const broadcastListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    tiny_id: 'number',
    title: 'string',
    description: 'string',
    tag_list: 'array',
    destination_team_ids: 'array',
    destination_account_user_ids: 'array',
    status: 'string',
    response_requested: 'boolean',
    response_requested_by: 'datetime',
    broadcast_response_options: 'any',
    broadcast_responses: 'any',
    source_id: 'string',
    source_type: 'string',
    sent_at: 'datetime',
    closed_at: 'datetime',
  },
  search: ['title', 'description'],
};
