// Entry point: a voicemail link opened (/public/voicemail/{token}): the signed token → 302 to the
// recording, signed for S3 at that moment, or a line of text saying why not (lib/voice-calls/voicemail-link.ts).
import { httpHandler } from '../../lib/api/handler';
import { openVoicemail } from '../../lib/voice-calls/voicemail-link';
import { voicemailRoutes } from '../../lib/voice-calls/routes';

const headers = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

export const handler = httpHandler(voicemailRoutes, {
  open: async (req) => {
    const opened = await openVoicemail(req.params.token);
    if (opened.status === 302) return { status: 302 as const, headers: { ...headers, location: opened.location } };
    return { status: opened.status, text: { contentType: 'text/plain; charset=utf-8', body: opened.message }, headers };
  },
});
