// Entry point: one-click responses (/public/respond/{token}); voicemail links are functions/http/voicemail.ts. Flow: the signed token → the
// escalation use case (GET describes, POST acts) → an HTML page, or JSON for a client that asks.
import { respondRoutes } from '../../lib/page-responses/routes';
import { httpHandler } from '../../lib/api/handler';
import { describeResponse, performResponse, type ResponseView } from '../../lib/page-responses/respond-to-page';
import { RESPONSE_PAGE_HEADERS, responseJson, responsePage } from '../../lib/page-responses/response-page';
import type { ApiRequest } from '../../lib/http/request';
import type { JsonReply, PageReply } from '../../lib/http/route-contract';

/** JSON for a client that asks for it, else the page. */
function shaped(
  req: ApiRequest,
  view: ResponseView,
): JsonReply<ResponseView['status'], ReturnType<typeof responseJson>> | PageReply<ResponseView['status']> {
  const accept = req.headers.accept ?? '';
  if (accept.includes('application/json') && !accept.includes('text/html')) {
    return { status: view.status, body: responseJson(view), headers: { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } };
  }
  return {
    status: view.status,
    text: { contentType: 'text/html; charset=utf-8', body: responsePage(view) },
    headers: RESPONSE_PAGE_HEADERS,
  };
}

export const handler = httpHandler(respondRoutes, {
  show: async (req) => shaped(req, await describeResponse(req.params.token)),
  respond: async (req) => shaped(req, await performResponse(req.params.token)),
});
