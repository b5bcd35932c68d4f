// The routes of the `respond` function (functions/http/respond.ts): one-click responses from a page.
// GET shows what the click will do, POST does it; the signed token is the credential.
import { declareRoutes } from '../http/route-contract';
import { ResponseJson } from './schemas';

export const respondRoutes = declareRoutes('respond', {
  show: {
    method: 'GET',
    path: '/public/respond/{token}',
    public: true,
    summary: 'What a one-click response link will do',
    description:
      "The token comes from a page's acknowledge or reject link: valid 24 hours, for that person's workflow only. Nothing changes. Browsers get an HTML page with the button; clients that send Accept: application/json get the JSON. 404: not a valid link; 410: expired; 409: nothing to do (already answered).",
    tag: 'Notifications',
    success: [
      { status: 200, description: 'The action the button performs', schema: ResponseJson, html: true },
      { status: 404, description: 'Not a valid link (malformed, tampered, or not for this person)', schema: ResponseJson, html: true },
      { status: 409, description: 'Nothing to do: the alert or the page was already answered', schema: ResponseJson, html: true },
      { status: 410, description: 'The link expired (24 hours)', schema: ResponseJson, html: true },
    ],
    errors: [],
  },
  respond: {
    method: 'POST',
    path: '/public/respond/{token}',
    public: true,
    summary: 'Acknowledge or reject from a one-click link',
    description:
      'Does what the link names, once: acknowledge stops the escalation, reject passes the alert on to the next layer at once. A replay, or a page already answered, changes nothing (409).',
    tag: 'Notifications',
    success: [
      { status: 200, description: 'Done', schema: ResponseJson, html: true },
      { status: 404, description: 'Not a valid link', schema: ResponseJson, html: true },
      { status: 409, description: 'Nothing was changed (a replay, or the page was already answered)', schema: ResponseJson, html: true },
      { status: 410, description: 'The link expired (24 hours)', schema: ResponseJson, html: true },
    ],
    errors: [],
  },
});
