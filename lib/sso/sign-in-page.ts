// The short page a browser gets when a single sign-on fails (403): the reason, escaped, and a link
// back to the console's sign-in. No script; the address (which carries the issuer's code and state)
// is kept out of referrers and caches.
import { escapeHtml, NOTICE_PAGE_HEADERS, noticePage } from '../http/html-page';

export const SIGN_IN_PAGE_HEADERS: Record<string, string> = NOTICE_PAGE_HEADERS;

export function signInRefusedPage(reason: string, consoleBase: string): string {
  return noticePage(
    'Single sign-on failed',
    `<p>The sign-in was refused: ${escapeHtml(reason)}.</p>` +
      `<p>Nobody was signed in. <a href="${escapeHtml(`${consoleBase}/#/`)}">Back to the sign-in page</a></p>`,
  );
}
