// SCIM provisioning (docs/api.md#scim-provisioning), for admins on the single sign-on page: the
// account's SCIM tokens, a new one made with a name and shown once with a copy button beside the
// SCIM base URL the identity provider is given, and a revoke for each.
import { useState } from 'preact/hooks';
import { api, listAll } from '../api';
import { formatDateTime } from '../lib/format';
import type { ScimToken, ScimTokenCreated } from '../types';
import { Form, SubmitButton, TextField, useForm } from './form';
import { CopyButton, ErrorList, Field, Loading, Notice, useLoad } from './ui';

export function ScimTokens() {
  const tokens = useLoad(() => listAll<ScimToken>('/api/v4/scim_tokens'), []);
  const [made, setMade] = useState<ScimTokenCreated | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const form = useForm();
  const create = async () => {
    let answer: ScimTokenCreated | null = null;
    const saved = await form.submit(async () => {
      answer = await api.post<ScimTokenCreated>('/api/v4/scim_tokens', { name: name.trim() });
    });
    if (saved && answer) {
      setMade(answer);
      setName('');
      void tokens.reload();
    }
  };
  const revoke = async (token: ScimToken) => {
    if (!window.confirm(`Revoke the SCIM token "${token.name}"? The identity provider using it is refused from then on.`)) return;
    setError(null);
    try {
      await api.delete(`/api/v4/scim_tokens/${encodeURIComponent(token.id)}`);
      if (made?.id === token.id) setMade(null);
      void tokens.reload();
    } catch (e) {
      setError(e);
    }
  };
  const baseUrl = `${window.location.origin}/scim/v2`;
  return (
    <section class="card" aria-labelledby="scim-title">
      <h2 id="scim-title">SCIM provisioning</h2>
      <p class="hint">
        Your identity provider (Okta, Microsoft Entra ID) creates, updates and deactivates people, and pushes groups as teams. Give it the
        SCIM base URL and a token; the README shows the setup at each provider.
      </p>
      <dl class="fields">
        <Field label="SCIM base URL">
          <code>{made?.scim_base_url ?? baseUrl}</code>{' '}
          <CopyButton value={made?.scim_base_url ?? baseUrl} description="Copy the SCIM base URL" />
        </Field>
      </dl>
      {made && (
        <Notice kind="success">
          New token "{made.name}": <code>{made.token}</code> <CopyButton value={made.token} description="Copy the SCIM token" /> Copy it
          now: it is not shown again.
        </Notice>
      )}
      <Form form={form} label="Make a SCIM token" onSubmit={create}>
        <TextField form={form} name="name" label="Token name" value={name} onInput={setName} placeholder="Okta" autoComplete="off" />
        <SubmitButton form={form} label="Make a token" busyLabel="Making…" />
      </Form>
      <ErrorList error={error} />
      {tokens.data === undefined ? (
        tokens.loading ? (
          <Loading what="the SCIM tokens" />
        ) : (
          <ErrorList error={tokens.error} />
        )
      ) : tokens.data.length === 0 ? (
        <p>No SCIM tokens.</p>
      ) : (
        <table>
          <caption>SCIM tokens</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Made</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td>{formatDateTime(token.created_at)}</td>
                <td>
                  <button
                    type="button"
                    class="button"
                    onClick={() => void revoke(token)}
                    aria-label={`Revoke the SCIM token ${token.name}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
