// What the placed call (./chime-voice-call.ts) and the SIP media function (lib/voice-calls) agree on:
// the provider's name in a notification, and the keys of the call's ArgumentsMap (also its
// TransactionAttributes once answered).

export const CHIME_VOICE_PROVIDER = 'chime-voice';

export const CALL_ARGUMENTS = { account: 'account_id', notification: 'notification_id' } as const;
