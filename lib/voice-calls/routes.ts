// The routes of the `voicemail` function (functions/http/voicemail.ts): a voicemail link opened. A
// function of its own, apart from the one-click responses: it holds the S3 client, whose protocol code
// the respond function's start carried for this rare route (esbuild's splitting puts the modules the
// start and a lazy chunk share in the start).
import { declareRoutes } from '../http/route-contract';

export const voicemailRoutes = declareRoutes('voicemail', {
  open: {
    method: 'GET',
    path: '/public/voicemail/{token}',
    public: true,
    summary: 'Open a voicemail left on a live call',
    description:
      "The link in the description of a live call's alert (docs/api.md#live-call-routing): signed, valid 7 days; the token is the credential. Redirects to the recording, signed for 5 minutes from now. 404: not a voicemail link of this service; 410: expired.",
    tag: 'Notifications',
    success: [
      { status: 302, description: 'To the recording (Location)' },
      { status: 404, description: 'Not a voicemail link of this service', text: 'text/plain' },
      { status: 410, description: 'The link expired (7 days)', text: 'text/plain' },
    ],
    errors: [],
  },
});
