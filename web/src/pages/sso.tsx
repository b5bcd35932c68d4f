// Single sign-on (docs/api.md#single-sign-on): the account's OpenID Connect settings. Everyone sees
// whether it is set up and with which issuer; admins set the issuer, client id and client secret
// (write-only: the API never shows it, and leaving the field empty keeps it), whether password
// sign-in is refused to non-admins (enforce), whether people the provider vouches for are added
// (create users) and with which roles, and may turn it off. The redirect URI to register at the
// provider is shown with a copy button. Admins also manage SCIM provisioning's tokens here.
import { useState } from 'preact/hooks';
import { api, unlessNotFound } from '../api';
import { CheckboxField, Form, SubmitButton, TextField, useForm } from '../components/form';
import { RoleChecks, ROLES, type RoleFlags } from '../components/role-checks';
import { ScimTokens } from '../components/scim-tokens';
import { CopyButton, ErrorList, Field, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import { formatDateTime } from '../lib/format';
import type { SsoSettings } from '../types';

export function SsoPage() {
  const directory = useDirectory();
  const settings = useLoad(() => unlessNotFound(api.get<SsoSettings>('/api/v4/sso')), []);
  const [notice, setNotice] = useState<string | null>(null);
  if (settings.loading && settings.data === undefined) return <Loading what="the single sign-on settings" />;
  if (settings.data === undefined) return <ErrorList error={settings.error} />;
  const current = settings.data;
  const changed = (message: string) => {
    setNotice(message);
    void settings.reload();
  };
  return (
    <section>
      <PageTitle>Single sign-on</PageTitle>
      <p class="hint">
        People sign in through your identity provider (OpenID Connect: Okta, Microsoft Entra ID, Google, …) with "Sign in with SSO" on the
        sign-in page. The README shows the setup at each provider.
      </p>
      {notice && <Notice kind="success">{notice}</Notice>}
      {current ? (
        <CurrentSettings settings={current} canTurnOff={directory.isAdmin} onTurnedOff={changed} />
      ) : (
        <Notice kind="info">Single sign-on is not set up.{directory.isAdmin ? '' : ' An admin of the account can set it up.'}</Notice>
      )}
      {directory.isAdmin && <SettingsForm key={current?.updated_at ?? 'new'} current={current} onSaved={() => changed('Saved.')} />}
      {directory.isAdmin && <ScimTokens />}
    </section>
  );
}

function CurrentSettings(props: { settings: SsoSettings; canTurnOff: boolean; onTurnedOff: (message: string) => void }) {
  const { settings } = props;
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const turnOff = async () => {
    if (!window.confirm('Turn single sign-on off? Everyone signs in with a password again.')) return;
    setBusy(true);
    setError(null);
    try {
      await api.delete('/api/v4/sso');
      props.onTurnedOff('Single sign-on is off.');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const roles = ROLES.filter((role) => settings.default_roles[role]);
  return (
    <section class="card" aria-labelledby="sso-current">
      <h2 id="sso-current">Set up</h2>
      <dl class="fields">
        <Field label="Issuer">
          <code>{settings.issuer}</code>
        </Field>
        <Field label="Client id">
          <code>{settings.client_id}</code>
        </Field>
        <Field label="Redirect URI to register">
          <code>{settings.redirect_uri}</code> <CopyButton value={settings.redirect_uri} description="Copy the redirect URI" />
        </Field>
        <Field label="Password sign-in">{settings.enforce ? 'Admins only' : 'Allowed'}</Field>
        <Field label="New people">
          {settings.create_users ? `Added at their first sign-in${roles.length ? ` (roles: ${roles.join(', ')})` : ''}` : 'Not added'}
        </Field>
        <Field label="Updated">{formatDateTime(settings.updated_at)}</Field>
      </dl>
      <ErrorList error={error} />
      {props.canTurnOff && (
        <button type="button" class="button" disabled={busy} onClick={() => void turnOff()}>
          {busy ? 'Turning off…' : 'Turn single sign-on off'}
        </button>
      )}
    </section>
  );
}

function SettingsForm({ current, onSaved }: { current: SsoSettings | null; onSaved: () => void }) {
  const [issuer, setIssuer] = useState(current?.issuer ?? '');
  const [clientId, setClientId] = useState(current?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [enforce, setEnforce] = useState(current?.enforce ?? false);
  const [createUsers, setCreateUsers] = useState(current?.create_users ?? false);
  const [roles, setRoles] = useState<RoleFlags>(
    current?.default_roles ?? { admin: false, billing: false, broadcaster: false, communicator: false },
  );
  const form = useForm();
  const title = current ? 'Change the settings' : 'Set up single sign-on';
  const save = async () => {
    const body = {
      issuer: issuer.trim(),
      client_id: clientId.trim(),
      // Write-only: an empty field keeps the stored secret.
      ...(clientSecret ? { client_secret: clientSecret } : {}),
      enforce,
      create_users: createUsers,
      default_roles: roles,
    };
    const saved = await form.submit(async () => {
      await api.put<SsoSettings>('/api/v4/sso', body);
    });
    if (saved) {
      setClientSecret('');
      onSaved();
    }
  };
  return (
    <section class="card" aria-labelledby={`${form.id}-title`}>
      <h2 id={`${form.id}-title`}>{title}</h2>
      <Form form={form} label={title} onSubmit={save}>
        <TextField
          form={form}
          name="issuer"
          label="Issuer URL"
          type="url"
          value={issuer}
          onInput={setIssuer}
          placeholder="https://example.okta.com"
          hint="The service reads its discovery document (/.well-known/openid-configuration) when you save."
        />
        <TextField form={form} name="client_id" label="Client id" value={clientId} onInput={setClientId} autoComplete="off" />
        <TextField
          form={form}
          name="client_secret"
          label="Client secret"
          type="password"
          autoComplete="off"
          value={clientSecret}
          onInput={setClientSecret}
          hint={current ? 'Stored encrypted and never shown. Leave empty to keep the current one.' : 'Stored encrypted and never shown.'}
        />
        <CheckboxField
          form={form}
          name="enforce"
          label="Refuse password sign-in to everyone but admins"
          checked={enforce}
          onChange={setEnforce}
        />
        <CheckboxField
          form={form}
          name="create_users"
          label="Add people the identity provider signs in who are not in the account yet"
          checked={createUsers}
          onChange={setCreateUsers}
        />
        <RoleChecks form={form} field="default_roles" legend="Roles of people added" roles={roles} onChange={setRoles} />
        <SubmitButton form={form} label="Save" busyLabel="Checking the issuer…" />
      </Form>
    </section>
  );
}
