// The end of a single sign-on (docs/api.md#single-sign-on): the service sends the browser back to
// `/#/sso/<code>`, a one-time code valid 60 seconds. The code is taken out of the address bar at once
// (kept in memory only, the address replaced, so it stays neither in the URL nor in the tab's
// history) and traded with POST /public/sso/exchange for the login token, which starts the session.
import { useEffect, useRef, useState } from 'preact/hooks';
import { messagesOf, request } from '../api';
import { Notice, PageTitle } from '../components/ui';
import { href } from '../router';
import { startSession } from '../session';

const SSO_PATH = '/sso';
let heldCode: string | null = null;

/** Takes a sign-in code out of the address bar into memory; true when there was one. */
export function holdSsoCode(): boolean {
  const match = /^#\/sso\/([^/?#]+)/.exec(window.location.hash);
  if (!match) return false;
  heldCode = match[1];
  window.history.replaceState(null, '', `#${SSO_PATH}`);
  return true;
}

export function isSsoSignInPath(path: string): boolean {
  return path === SSO_PATH;
}

export function SsoSignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [error, setError] = useState<string[] | null>(null);
  // The code is spent by the first exchange: the effect runs once, whatever the parent re-renders with.
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;
  useEffect(() => {
    const code = heldCode;
    heldCode = null;
    if (!code) {
      setError(['This sign-in link was already used. Sign in again.']);
      return;
    }
    request<{ token: string }>('POST', '/public/sso/exchange', { code }, { anonymous: true }).then(
      ({ token }) => {
        startSession(token);
        signedIn.current();
      },
      (failure: unknown) => setError(messagesOf(failure)),
    );
  }, []);
  return (
    <main id="main" class="sign-in" tabIndex={-1}>
      <div class="sign-in-card">
        <PageTitle>Single sign-on</PageTitle>
        {error ? (
          <>
            <Notice kind="error">
              {error.map((message) => (
                <p key={message}>{message}</p>
              ))}
            </Notice>
            <p class="sign-in-links">
              <a href={href('/')}>Back to sign in</a>
            </p>
          </>
        ) : (
          <p class="loading" role="status">
            Signing you in…
          </p>
        )}
      </div>
    </main>
  );
}
