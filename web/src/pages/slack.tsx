// Slack (docs/api.md#slack): the account's connected workspace (GET /api/v4/slack: its name and id,
// the bot, since when; never the token or the signing secret, which the API never shows). Admins
// connect it with a bot token and signing secret (PUT /api/v4/slack, checked by Slack's auth.test:
// its refusal lands on the token's field), or with "Add to Slack" when the deployment has a Slack
// app of its own (GET /api/v4/slack/install answers the authorize URL; 404 when it has none), and
// disconnect it (DELETE) once they confirm. Everyone else sees whether Slack is connected.
import { useState } from 'preact/hooks';
import { api, unlessNotFound } from '../api';
import { Form, SubmitButton, TextField, useForm } from '../components/form';
import { ErrorList, Field, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import { formatDateTime } from '../lib/format';
import type { SlackConnection, SlackInstall } from '../types';

export function SlackPage() {
  const directory = useDirectory();
  const connection = useLoad(() => unlessNotFound(api.get<SlackConnection>('/api/v4/slack')), []);
  // Only to know whether to offer "Add to Slack": the link itself is asked for again on click (its state expires).
  const install = useLoad(
    async () => (directory.isAdmin ? (await unlessNotFound(api.get<SlackInstall>('/api/v4/slack/install'))) !== null : false),
    [directory.isAdmin],
  );
  const [notice, setNotice] = useState<string | null>(null);
  if (connection.loading && connection.data === undefined) return <Loading what="the Slack connection" />;
  if (connection.data === undefined) return <ErrorList error={connection.error} />;
  const connected = connection.data;
  const changed = (message: string) => {
    setNotice(message);
    void connection.reload();
  };
  return (
    <section>
      <PageTitle>Slack</PageTitle>
      <p class="hint">
        A connected workspace pages people by direct message (their notification channel "Slack direct message", or a notification rule's{' '}
        <code>slack</code>), posts each team's alerts to its Slack channel, and lets people acknowledge, reject and resolve from Slack or
        with <code>/oncall</code>.
      </p>
      {notice && <Notice kind="success">{notice}</Notice>}
      {connected ? (
        <ConnectedWorkspace connection={connected} canDisconnect={directory.isAdmin} onDisconnected={changed} />
      ) : (
        <Notice kind="info">Slack is not connected.{directory.isAdmin ? '' : ' An admin of the account can connect it.'}</Notice>
      )}
      {directory.isAdmin && (
        <>
          {install.data && <AddToSlack reconnect={connected !== null} />}
          <TokenForm connected={connected} onConnected={(c) => changed(`Connected to the Slack workspace ${c.team_name}.`)} />
        </>
      )}
    </section>
  );
}

function ConnectedWorkspace(props: { connection: SlackConnection; canDisconnect: boolean; onDisconnected: (message: string) => void }) {
  const { connection } = props;
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const disconnect = async () => {
    const question = `Disconnect the Slack workspace ${connection.team_name}? Pages by Slack will fail and team channels stop following their alerts until Slack is connected again.`;
    if (!window.confirm(question)) return;
    setBusy(true);
    setError(null);
    try {
      await api.delete('/api/v4/slack');
      props.onDisconnected(`Disconnected from the Slack workspace ${connection.team_name}.`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="slack-workspace">
      <h2 id="slack-workspace">Connected workspace</h2>
      <dl class="fields">
        <Field label="Workspace">{connection.team_name}</Field>
        <Field label="Workspace id">
          <code>{connection.team_id}</code>
        </Field>
        <Field label="Bot user">
          <code>{connection.bot_user_id}</code>
        </Field>
        <Field label="Connected">{formatDateTime(connection.connected_at)}</Field>
      </dl>
      <ErrorList error={error} />
      {props.canDisconnect && (
        <button type="button" class="button" disabled={busy} onClick={() => void disconnect()}>
          {busy ? 'Disconnecting…' : 'Disconnect Slack'}
        </button>
      )}
    </section>
  );
}

/** "Add to Slack": a fresh authorize URL (its signed state lasts 10 minutes), then Slack's own page. */
function AddToSlack({ reconnect }: { reconnect: boolean }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await api.get<SlackInstall>('/api/v4/slack/install');
      window.location.assign(url);
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="add-to-slack">
      <h2 id="add-to-slack">Add to Slack</h2>
      <p class="hint">
        Install this service's Slack app in your workspace: Slack asks you to allow it, then brings you back here.
        {reconnect ? ' Installing it in another workspace replaces the connection.' : ''}
      </p>
      <ErrorList error={error} />
      <button type="button" class="button button-primary" disabled={busy} onClick={() => void start()}>
        {busy ? 'Opening Slack…' : 'Add to Slack'}
      </button>
    </section>
  );
}

/** Connects (or replaces the connection) with a Slack app of the account's own. */
function TokenForm({ connected, onConnected }: { connected: SlackConnection | null; onConnected: (c: SlackConnection) => void }) {
  const [botToken, setBotToken] = useState('');
  const [signingSecret, setSigningSecret] = useState('');
  const form = useForm();
  const title = connected ? 'Connect with another bot token' : 'Connect with a bot token';
  return (
    <section class="card" aria-labelledby={`${form.id}-title`}>
      <h2 id={`${form.id}-title`}>{title}</h2>
      <p class="hint">
        For a Slack app of your own (the README has its manifest): install it in your workspace, then paste its bot token and signing
        secret. Slack checks the token; neither is shown again.
      </p>
      <Form
        form={form}
        label={title}
        onSubmit={async () => {
          let saved: SlackConnection | null = null;
          const ok = await form.submit(async () => {
            saved = await api.put<SlackConnection>('/api/v4/slack', { bot_token: botToken.trim(), signing_secret: signingSecret.trim() });
          });
          if (ok && saved) {
            setBotToken('');
            setSigningSecret('');
            onConnected(saved);
          }
        }}
      >
        <TextField
          form={form}
          name="bot_token"
          label="Bot token"
          type="password"
          autoComplete="off"
          value={botToken}
          onInput={setBotToken}
          placeholder="xoxb-…"
          hint="OAuth & Permissions → Bot User OAuth Token."
        />
        <TextField
          form={form}
          name="signing_secret"
          label="Signing secret"
          type="password"
          autoComplete="off"
          value={signingSecret}
          onInput={setSigningSecret}
          hint="Basic Information → App Credentials → Signing Secret."
        />
        <SubmitButton form={form} label="Connect Slack" busyLabel="Checking with Slack…" />
      </Form>
    </section>
  );
}
