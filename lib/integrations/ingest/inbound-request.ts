// An inbound request as the webhook and beat paths keep it, from the API request that carried it.
import { storedBody } from '../../encoding/stored-body';
import type { ApiRequest } from '../../http/request';
import type { InboundRequest } from './admit-request';

export function inboundRequest(
  req: Pick<ApiRequest, 'bodyBytes' | 'headers' | 'query' | 'receivedAt' | 'sourceIp'>,
): Omit<InboundRequest, 'rawId'> {
  return {
    ...storedBody(req.bodyBytes()),
    headers: req.headers,
    query: req.query.toString(),
    receivedAt: req.receivedAt,
    sourceIp: req.sourceIp,
  };
}
