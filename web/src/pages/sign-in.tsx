// Sign in: POST /public/login {username, password} → {token}. Wrong credentials are shown here;
// "Forgot password?" leads to the reset form (pages/password-reset.tsx).
import { useState } from 'preact/hooks';
import { request } from '../api';
import { Form, SubmitButton, TextField, useForm } from '../components/form';
import { Notice, PageTitle } from '../components/ui';
import { href } from '../router';
import { startSession } from '../session';

export function SignInPage({ notice, onSignedIn }: { notice: string | null; onSignedIn: () => void }) {
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
    <main id="main" class="sign-in" tabIndex={-1}>
      <div class="sign-in-card">
        <PageTitle>Sign in to the on-call console</PageTitle>
        {notice && <Notice kind="info">{notice}</Notice>}
        <Form form={form} label="Sign in" onSubmit={signIn}>
          <TextField
            form={form}
            name="email"
            label="Email"
            type="email"
            autoComplete="username"
            value={email}
            onInput={setEmail}
            required
          />
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
        <p class="sign-in-links">
          <a href={href('/forgot-password')}>Forgot password?</a>
        </p>
      </div>
    </main>
  );
}
