// The page Slack's redirect lands on after "Add to Slack": whether the workspace is connected, and a
// link back to the console. Every value is escaped; no script, a strict Content-Security-Policy, and
// the code and state in its address kept out of referrers and caches.
import { createHash } from 'node:crypto';
import { consoleLink } from '../http/base-url';
import type { InstallOutcome } from './install';

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}h1{font-size:1.4rem}';

export const INSTALL_PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'`,
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

export function installPage(outcome: InstallOutcome): string {
  const back = consoleLink('alerts');
  const link = back ? `<p><a href="${escapeHtml(back)}">Back to the console</a></p>` : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(outcome.title)}</title><style>${STYLE}</style></head>` +
    `<body><h1>${escapeHtml(outcome.title)}</h1><p>${escapeHtml(outcome.detail)}</p>${link}</body></html>`
  );
}
