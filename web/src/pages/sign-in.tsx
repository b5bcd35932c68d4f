// Sign in: POST /public/login {username, password} → {token}. Wrong credentials are shown here;
// "Forgot password?" leads to the reset form (pages/password-reset.tsx). "Sign in with SSO" asks for
// the address first (GET /public/sso/accounts: the accounts it signs in to with single sign-on),
// then for the account when there are several, and sends the browser to GET /public/sso/start,
// which goes on to the account's identity provider; it comes back at #/sso/<code> (pages/sso-sign-in.tsx).
import { useState } from 'preact/hooks';
import { request, withQuery } from '../api';
import { Form, SelectField, SubmitButton, TextField, useForm } from '../components/form';
import { Notice, PageTitle } from '../components/ui';
import { href } from '../router';
import { startSession } from '../session';
import type { SsoAccountChoices } from '../types';

/** The address of the single sign-on form: a page of its own, so "Sign in with SSO" is a link like "Forgot password?". */
export const SSO_SIGN_IN_PATH = '/sign-in-with-sso';

export function SignInPage({ notice, withSso, onSignedIn }: { notice: string | null; withSso: boolean; onSignedIn: () => void }) {
  return (
    <main id="main" class="sign-in" tabIndex={-1}>
      <div class="sign-in-card">
        <PageTitle>Sign in to the on-call console</PageTitle>
        {notice && <Notice kind="info">{notice}</Notice>}
        {withSso ? <SsoSignIn /> : <PasswordSignIn onSignedIn={onSignedIn} />}
        <p class="sign-in-links">
          {withSso ? (
            <a href={href('/')}>Sign in with a password</a>
          ) : (
            <>
              <a href={href(SSO_SIGN_IN_PATH)}>Sign in with SSO</a>
              {' · '}
              <a href={href('/forgot-password')}>Forgot password?</a>
            </>
          )}
        </p>
      </div>
    </main>
  );
}

function PasswordSignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useForm({ username: 'email' });

  const signIn = () =>
    form.submit(async () => {
      const { token } = await request<{ token: string }>(
        'POST',
        '/public/login',
        { username: email.trim(), password },
        { anonymous: true },
      );
      startSession(token);
      onSignedIn();
    });

  return (
    <Form form={form} label="Sign in" onSubmit={signIn}>
      <TextField form={form} name="email" label="Email" type="email" autoComplete="username" value={email} onInput={setEmail} required />
      <TextField
        form={form}
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onInput={setPassword}
        required
      />
      <SubmitButton form={form} label="Sign in" busyLabel="Signing in…" />
    </Form>
  );
}

/** The browser leaves for the identity provider from here. */
function goToProvider(email: string, accountId: string): void {
  window.location.assign(withQuery('/public/sso/start', { email, account_id: accountId }));
}

function SsoSignIn() {
  const [email, setEmail] = useState('');
  const [choices, setChoices] = useState<SsoAccountChoices['data'] | null>(null);
  const [accountId, setAccountId] = useState('');
  const [none, setNone] = useState(false);
  const form = useForm();

  const lookUp = () =>
    form.submit(async () => {
      setNone(false);
      const address = email.trim();
      const { data } = await request<SsoAccountChoices>('GET', withQuery('/public/sso/accounts', { email: address }), undefined, {
        anonymous: true,
      });
      if (data.length === 0) setNone(true);
      else if (data.length === 1) goToProvider(address, data[0].account_id);
      else {
        setChoices(data);
        setAccountId(data[0].account_id);
      }
    });

  if (choices) {
    return (
      <Form form={form} label="Choose the account" onSubmit={() => goToProvider(email.trim(), accountId)}>
        <p class="hint">{email.trim()} signs in to several accounts with single sign-on. Which one?</p>
        <SelectField
          form={form}
          name="account_id"
          label="Account"
          value={accountId}
          options={choices.map((choice) => ({ value: choice.account_id, label: choice.account_name }))}
          onChange={setAccountId}
        />
        <SubmitButton form={form} label="Continue" />
      </Form>
    );
  }
  return (
    <Form form={form} label="Sign in with SSO" onSubmit={lookUp}>
      <p class="hint">Your organization's identity provider signs you in.</p>
      {none && <Notice kind="info">Single sign-on is not set up for this address. Sign in with your password.</Notice>}
      <TextField form={form} name="email" label="Email" type="email" autoComplete="username" value={email} onInput={setEmail} required />
      <SubmitButton form={form} label="Continue" busyLabel="Looking up your account…" />
    </Form>
  );
}
