// The page Slack's redirect lands on after "Add to Slack": whether the workspace is connected, and a
// link back to the console's Slack page (which shows the connection). Every value is escaped; no script, a strict Content-Security-Policy, and
// the code and state in its address kept out of referrers and caches.
import { consoleLink } from '../http/base-url';
import { escapeHtml, htmlPageHeaders } from '../http/html-page';
import type { InstallOutcome } from './install';

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}h1{font-size:1.4rem}';

export const INSTALL_PAGE_HEADERS: Record<string, string> = htmlPageHeaders(STYLE);

export function installPage(outcome: InstallOutcome): string {
  const back = consoleLink('slack');
  const link = back ? `<p><a href="${escapeHtml(back)}">Back to the console</a></p>` : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(outcome.title)}</title><style>${STYLE}</style></head>` +
    `<body><h1>${escapeHtml(outcome.title)}</h1><p>${escapeHtml(outcome.detail)}</p>${link}</body></html>`
  );
}
