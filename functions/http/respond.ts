// Entry point: one-click responses (/public/respond/{token}) and voicemail links (/public/voicemail/{token}). Flow: the signed token → the
// escalation use case (GET describes, POST acts) → an HTML page, or JSON for a client that asks.
import { respondRoutes } from '../../lib/page-responses/routes';
import { httpHandler } from '../../lib/api/handler';
import { describeResponse, performResponse, type ResponseView } from '../../lib/page-responses/respond-to-page';
import { RESPONSE_PAGE_HEADERS, responseJson, responsePage } from '../../lib/page-responses/response-page';
import type { ApiRequest } from '../../lib/http/request';
import type { JsonReply, PageReply } from '../../lib/http/route-contract';
import { loadOnce } from '../../lib/load-once';

const loadVoiceCallsVoicemailLink = /* @__PURE__ */ loadOnce(() => import('../../lib/voice-calls/voicemail-link'));

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

/** A voicemail link opened: to the recording, or a short text saying why not. */
async function voicemail(token: string) {
  const { openVoicemail } = await loadVoiceCallsVoicemailLink();
  const opened = await openVoicemail(token);
  const headers = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };
  if (opened.status === 302) return { status: 302 as const, headers: { ...headers, location: opened.location } };
  return { status: opened.status, text: { contentType: 'text/plain; charset=utf-8', body: opened.message }, headers };
}

export const handler = httpHandler(respondRoutes, {
  show: async (req) => shaped(req, await describeResponse(req.params.token)),
  respond: async (req) => shaped(req, await performResponse(req.params.token)),
  voicemail: async (req) => voicemail(req.params.token),
});
