// Checking that notifications reach a person: "Send test" per channel (POST
// /api/v4/account_users/:id/test_notification, template `test`; docs/api.md#test-notifications) on
// Profile and on a user's page, and on Profile "Enable notifications on this device" (the console's
// own service worker and the browser's PushManager, ../push-device.ts).
import { useEffect, useState } from 'preact/hooks';
import { api, messagesOf } from '../api';
import { deviceState, disableDevice, enableDevice, type DeviceState } from '../push-device';
import type { AccountUser, Channel, Notification } from '../types';
import { Notice } from './ui';

const CHANNEL_LABEL: Record<Channel, string> = {
  push: 'push notification',
  email: 'e-mail',
  sms: 'SMS',
  voice: 'voice call',
  slack: 'Slack message',
};

/** The channels a test can go out on for this person: e-mail and phone channels need an address; Slack a linked Slack user. */
export function testChannels(accountUser: AccountUser): Channel[] {
  const channels: Channel[] = ['push'];
  if (accountUser.user.emails.length) channels.push('email');
  if (accountUser.user.phones.length) channels.push('sms', 'voice');
  if (accountUser.slack_user_id) channels.push('slack');
  return channels;
}

type Outcome = { kind: 'success' | 'error'; text: string };

/** What became of a test: sent (or failed at once, with the provider's reason from the earlier interface, which shows err). */
async function outcomeOf(sent: Notification): Promise<Outcome> {
  const what = CHANNEL_LABEL[sent.channel];
  if (sent.status !== 'failed') return { kind: 'success', text: `Test ${what} sent to ${sent.to}.` };
  const earlier = await api.get<{ err: string[] }>(`/notification/${encodeURIComponent(sent.prefix_id)}`).catch(() => ({ err: [] }));
  return { kind: 'error', text: `The test ${what} could not be sent${earlier.err.length ? `: ${earlier.err.join('; ')}` : '.'}` };
}

export function SendTestButtons({ accountUser }: { accountUser: AccountUser }) {
  const [busy, setBusy] = useState<Channel | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const send = async (channel: Channel) => {
    setBusy(channel);
    setOutcome(null);
    try {
      const sent = await api.post<Notification>(`/api/v4/account_users/${encodeURIComponent(accountUser.id)}/test_notification`, {
        channel,
      });
      setOutcome(await outcomeOf(sent));
    } catch (error) {
      setOutcome({ kind: 'error', text: messagesOf(error).join(' ') });
    } finally {
      setBusy(null);
    }
  };
  return (
    <section class="card" aria-labelledby="test-notifications-title">
      <h2 id="test-notifications-title">Test notifications</h2>
      <p class="hint">Sends a short test message on one channel, to check that it reaches {accountUser.user.name} before a page has to.</p>
      {outcome && <Notice kind={outcome.kind}>{outcome.text}</Notice>}
      <div class="button-row">
        {testChannels(accountUser).map((channel) => (
          <button key={channel} type="button" class="button" disabled={busy !== null} onClick={() => void send(channel)}>
            {busy === channel ? 'Sending…' : `Send test ${CHANNEL_LABEL[channel]}`}
          </button>
        ))}
      </div>
    </section>
  );
}

const DEVICE_TEXT: Record<DeviceState['kind'], string> = {
  unsupported: '',
  denied: 'Notifications are blocked for this site in this browser: allow them in the site settings, then try again.',
  off: 'This device does not receive your notifications.',
  on: 'This device receives your notifications.',
};

export function PushDeviceCard({ accountUserId }: { accountUserId: string }) {
  const [state, setState] = useState<DeviceState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    deviceState().then(
      (found) => live && setState(found),
      (failure: unknown) => live && setError(messagesOf(failure).join(' ')),
    );
    return () => {
      live = false;
    };
  }, []);
  const change = async (next: (id: string) => Promise<DeviceState>) => {
    setBusy(true);
    setError(null);
    try {
      setState(await next(accountUserId));
    } catch (failure) {
      setError(messagesOf(failure).join(' ') || (failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="push-device-title">
      <h2 id="push-device-title">Notifications on this device</h2>
      {error && <Notice kind="error">{error}</Notice>}
      {state === null ? (
        <p class="loading" role="status">
          Checking this browser…
        </p>
      ) : (
        <p role="status">{state.kind === 'unsupported' ? state.why : DEVICE_TEXT[state.kind]}</p>
      )}
      {state && (state.kind === 'off' || state.kind === 'denied') && (
        <button type="button" class="button button-primary" disabled={busy} onClick={() => void change(enableDevice)}>
          {busy ? 'Enabling…' : 'Enable notifications on this device'}
        </button>
      )}
      {state?.kind === 'on' && (
        <button type="button" class="button" disabled={busy} onClick={() => void change(disableDevice)}>
          {busy ? 'Turning off…' : 'Turn off notifications on this device'}
        </button>
      )}
    </section>
  );
}
