// The page Slack's redirect lands on after "Add to Slack": whether the workspace is connected, and a
// link back to the console's Slack page (which shows the connection). Every value is escaped; no script, a strict Content-Security-Policy, and
// the code and state in its address kept out of referrers and caches.
import { consoleLink } from '../http/base-url';
import { escapeHtml, NOTICE_PAGE_HEADERS, noticePage } from '../http/html-page';
import type { InstallOutcome } from './install';

export const INSTALL_PAGE_HEADERS: Record<string, string> = NOTICE_PAGE_HEADERS;

export function installPage(outcome: InstallOutcome): string {
  const back = consoleLink('slack');
  const link = back ? `<p><a href="${escapeHtml(back)}">Back to the console</a></p>` : '';
  return noticePage(outcome.title, `<p>${escapeHtml(outcome.detail)}</p>${link}`);
}
