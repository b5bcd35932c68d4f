// The provider interface (docs/api.md#escalation-and-notifications): a channel with no provider configured is recorded as failed with the
// reason; the local outbox delivers every channel and keeps what went out (OUTBOX=memory).
import { afterEach, describe, expect, it } from 'vitest';
import { replaceDependencies } from '../../lib/dependencies';
import { PROVIDERS, providerFor } from '../../lib/notify/providers/select-provider';
import type { OutgoingMessage } from '../../lib/notify/providers/provider';
import { changeEnvironment } from '../support/dependencies';

const message: OutgoingMessage = {
  notificationId: 'N1',
  accountId: 'A',
  accountUserId: 'U',
  channel: 'sms',
  to: '+14155550100',
  subject: null,
  message: '#1 HIGH: Disk full',
  html: null,
  template: 'alert_alert',
};

let kept: OutgoingMessage[] = [];
const restores: (() => void)[] = [];

function withOutbox(mode: string) {
  kept = [];
  restores.push(changeEnvironment({ TABLE_NAME: 'oncall', OUTBOX: mode }), replaceDependencies({ memoryOutbox: kept }));
}

afterEach(() => {
  for (const restore of restores.splice(0).reverse()) restore();
});

describe('providers', () => {
  it('records a channel without a configured provider as failed, naming what to configure', async () => {
    withOutbox('none');
    // Slack is always Slack's own provider (each account connects a workspace): test/api/slack.test.ts.
    for (const channel of ['email', 'sms', 'voice', 'push'] as const) {
      const result = await providerFor(channel).send({ ...message, channel });
      expect(result.status).toBe('failed');
      expect(result.provider).toBe('none');
      expect(result.err).toMatch(new RegExp(`no ${channel} provider is configured`));
    }
  });

  it('Slack is delivered by the Slack provider, never by the outbox', () => {
    withOutbox('memory');
    expect(providerFor('slack').name).toBe('slack');
    expect(providerFor('push').name).toBe('outbox');
  });

  it('the memory outbox delivers every channel and keeps the full message', async () => {
    withOutbox('memory');
    const result = await providerFor('sms').send(message);
    expect(result).toMatchObject({ status: 'sent', provider: 'outbox', provider_id: 'N1', cost: 0 });
    expect(kept).toEqual([message]);
  });

  it('a configured provider is asked before the outbox', async () => {
    withOutbox('memory');
    const sent: string[] = [];
    PROVIDERS.unshift({
      name: 'test-sms',
      forChannel: (channel) =>
        channel === 'sms'
          ? { name: 'test-sms', send: async (m) => (sent.push(m.to), { status: 'delivered', provider: 'test-sms' }) }
          : null,
    });
    try {
      expect((await providerFor('sms').send(message)).provider).toBe('test-sms');
      expect((await providerFor('email').send({ ...message, channel: 'email' })).provider).toBe('outbox');
      expect(sent).toEqual([message.to]);
    } finally {
      PROVIDERS.shift();
    }
  });

  it('voice is a call you can answer (Chime SDK) when both its settings are given, else End User Messaging text to speech', () => {
    const eum = { TABLE_NAME: 'oncall', OUTBOX: 'none', VOICE_ORIGINATION_IDENTITY: '+18005550198' };
    restores.push(changeEnvironment({ ...eum, VOICE_SIP_MEDIA_APPLICATION_ID: 'sma-1', VOICE_FROM_NUMBER: '+12065550100' }));
    expect(providerFor('voice').name).toBe('chime-voice');
    expect(providerFor('sms').name).toBe('none');
    restores.push(changeEnvironment({ ...eum, VOICE_SIP_MEDIA_APPLICATION_ID: 'sma-1', VOICE_FROM_NUMBER: '' }));
    expect(providerFor('voice').name).toBe('sms-voice-v2');
  });
});
