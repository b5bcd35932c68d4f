// Forgotten passwords (docs/api.md#authentication), reachable without a session: the form that asks for a link
// (POST /public/password_reset {email}: the same answer whether or not the address is known), and
// the page the e-mailed link opens (`/#/reset-password/<token>`), which sets the new password with
// POST /public/password_reset/<token>. The token is read out of the address bar at once, kept in
// memory only, and the address replaced, so it stays neither in the URL nor in the tab's history;
// it is sent nowhere but to that API call.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, request } from '../api';
import { Form, SubmitButton, TextField, useForm } from '../components/form';
import { Notice, PageTitle } from '../components/ui';
import { href } from '../router';

const RESET_PATH = '/reset-password';
let heldToken: string | null = null;

/** Takes a reset token out of the address bar into memory; true when there was one. */
export function holdResetToken(): boolean {
  const match = /^#\/reset-password\/([^/?#]+)/.exec(window.location.hash);
  if (!match) return false;
  try {
    heldToken = decodeURIComponent(match[1]);
  } catch {
    heldToken = match[1];
  }
  window.history.replaceState(null, '', `#${RESET_PATH}`);
  return true;
}

export function isPasswordResetPath(path: string): boolean {
  return path === RESET_PATH || path.startsWith(`${RESET_PATH}/`);
}

function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · On-call console`;
  }, [title]);
}

function BackToSignIn() {
  return (
    <p class="sign-in-links">
      <a href={href('/')}>Back to sign in</a>
    </p>
  );
}

export function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm();

  const ask = () =>
    form.submit(async () => {
      setSent(null);
      const answer = await request<{ message?: string }>('POST', '/public/password_reset', { email: email.trim() }, { anonymous: true });
      setSent(answer?.message ?? 'If the address belongs to a user, a link to choose a new password was sent to it.');
    });

  return (
    <main id="main" class="sign-in" tabIndex={-1}>
      <div class="sign-in-card">
        <PageTitle>Forgot your password?</PageTitle>
        <p class="hint">Enter the e-mail address you sign in with. If it belongs to a user, we send it a link to choose a new password.</p>
        {sent && <Notice kind="success">{sent}</Notice>}
        <Form form={form} label="Ask for a password reset link" onSubmit={ask}>
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
          <SubmitButton form={form} label="Send reset link" busyLabel="Sending…" />
        </Form>
        <BackToSignIn />
      </div>
    </main>
  );
}

export function ResetPasswordPage({ onDone }: { onDone: (notice: string) => void }) {
  usePageTitle('Choose a new password');
  const [token, setToken] = useState(heldToken);
  const [password, setPassword] = useState('');
  const form = useForm();

  // A link opened again in this tab replaces the token held before.
  useEffect(() => {
    const pick = () => setToken(heldToken);
    window.addEventListener('hashchange', pick);
    return () => window.removeEventListener('hashchange', pick);
  }, []);

  const choose = () =>
    form.submit(async () => {
      if (!token) return;
      try {
        await request<void>('POST', `/public/password_reset/${encodeURIComponent(token)}`, { password }, { anonymous: true });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          heldToken = null;
          setToken(null);
          throw new ApiError(404, ['This link is invalid, expired or already used. Ask for a new one below.']);
        }
        throw error;
      }
      heldToken = null;
      onDone('Your password was changed. Sign in with your new password.');
    });

  return (
    <main id="main" class="sign-in" tabIndex={-1}>
      <div class="sign-in-card">
        <PageTitle>Choose a new password</PageTitle>
        {token ? (
          <Form form={form} label="Password reset" onSubmit={choose}>
            <TextField
              form={form}
              name="password"
              label="New password"
              type="password"
              autoComplete="new-password"
              value={password}
              onInput={setPassword}
              hint="At least 8 characters."
              required
            />
            <SubmitButton form={form} label="Set new password" busyLabel="Saving…" />
          </Form>
        ) : (
          <>
            {form.general.length > 0 ? (
              <Notice kind="error">{form.general.join(' ')}</Notice>
            ) : (
              <Notice kind="info">This page needs the link from the password reset e-mail, and each link works once.</Notice>
            )}
            <p class="sign-in-links">
              <a href={href('/forgot-password')}>Ask for a new link</a>
            </p>
          </>
        )}
        <BackToSignIn />
      </div>
    </main>
  );
}
