// The console's shell: the sign-in page until there is a session, then the navigation bar and the
// page the hash names. A session the API refuses (expired, revoked) returns to sign-in with a note.
// The password reset pages answer without a session (and with one: a link opened in a signed-in tab);
// so does the end of a single sign-on, which replaces any session the tab had.
import { useEffect, useState } from 'preact/hooks';
import { onSessionExpired } from './api';
import { DirectoryProvider, useDirectory } from './directory';
import { LANDING_PAGE, PAGES } from './pages/index';
import { ForgotPasswordPage, holdResetToken, isPasswordResetPath, ResetPasswordPage } from './pages/password-reset';
import { SignInPage, SSO_SIGN_IN_PATH } from './pages/sign-in';
import { holdSsoCode, isSsoSignInPath, SsoSignInPage } from './pages/sso-sign-in';
import { href, matchPath, navigate, useLocation } from './router';
import { currentToken, endSession, onSessionChange, restoreSession, takeEndNotice } from './session';

restoreSession();
holdResetToken();
holdSsoCode();
window.addEventListener('hashchange', () => {
  if (holdResetToken() || holdSsoCode()) window.dispatchEvent(new HashChangeEvent('hashchange'));
});

export function App() {
  const [signedIn, setSignedIn] = useState(() => currentToken() !== null);
  const [notice, setNotice] = useState<string | null>(null);

  const location = useLocation();

  useEffect(() => {
    onSessionExpired(() => setNotice('Your session has ended. Sign in again.'));
    return onSessionChange(() => {
      const signed = currentToken() !== null;
      setSignedIn(signed);
      if (!signed) setNotice(takeEndNotice());
    });
  }, []);

  if (location.path === '/forgot-password') return <ForgotPasswordPage />;
  if (isPasswordResetPath(location.path)) {
    return (
      <ResetPasswordPage
        onDone={(message) => {
          if (currentToken()) endSession(message);
          else setNotice(message);
          navigate('/', undefined, { replace: true });
        }}
      />
    );
  }

  if (isSsoSignInPath(location.path)) {
    return (
      <SsoSignInPage
        onSignedIn={() => {
          setNotice(null);
          navigate(LANDING_PAGE, undefined, { replace: true });
        }}
      />
    );
  }

  if (!signedIn) {
    return (
      <SignInPage
        notice={notice}
        withSso={location.path === SSO_SIGN_IN_PATH}
        onSignedIn={() => {
          setNotice(null);
          if (!PAGES.some((p) => matchPath(p.pattern, window.location.hash.replace(/^#/, '').split('?')[0]))) {
            navigate(LANDING_PAGE, undefined, { replace: true });
          }
        }}
      />
    );
  }
  return (
    <DirectoryProvider>
      <Shell />
    </DirectoryProvider>
  );
}

function Shell() {
  const location = useLocation();
  const directory = useDirectory();
  const matched = PAGES.map((page) => ({ page, params: matchPath(page.pattern, location.path) })).find((m) => m.params);

  const area = matched?.page.area;

  // On every path that names no page, not only the first: #/nope, then #/other, lands twice.
  useEffect(() => {
    if (area === undefined) navigate(LANDING_PAGE, undefined, { replace: true });
  }, [area, location.path]);

  useEffect(() => {
    const label = area === undefined ? '' : (PAGES.find((p) => p.pattern === area)?.nav ?? '');
    document.title = label ? `${label} · On-call console` : 'On-call console';
  }, [area]);

  return (
    <div class="shell">
      <a
        class="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">On-call</span>
        <nav aria-label="Main">
          <ul>
            {PAGES.filter((p) => p.nav && (!p.adminOnly || directory.isAdmin)).map((page) => (
              <li key={page.pattern}>
                <a href={href(page.pattern)} aria-current={matched?.page.area === page.pattern ? 'page' : undefined}>
                  {page.nav}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="whoami">
          {directory.me && <span class="me">{directory.me.user.name}</span>}
          <button type="button" class="button button-small" onClick={() => endSession()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {matched && <matched.page.component key={location.path} params={matched.params!} query={location.query} />}
      </main>
    </div>
  );
}
