// Small HTML pages the service answers to a browser (one-click responses, the end of "Add to
// Slack"): every value escaped, no script at all, and a strict Content-Security-Policy that allows
// the page's one style block by its hash; the address (which may carry a token or a code) is kept
// out of referrers and caches.
import { createHash } from 'node:crypto';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

/** The headers of a page whose only style is `style`; `formAction` lets its forms post back to itself. */
export function htmlPageHeaders(style: string, options: { formAction?: boolean } = {}): Record<string, string> {
  const styleHash = createHash('sha256').update(style).digest('base64');
  return {
    'content-security-policy': `default-src 'none'; style-src 'sha256-${styleHash}';${options.formAction ? " form-action 'self';" : ''} frame-ancestors 'none'; base-uri 'none'`,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

const NOTICE_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}h1{font-size:1.4rem}';

/** The headers of a noticePage. */
export const NOTICE_PAGE_HEADERS: Record<string, string> = htmlPageHeaders(NOTICE_STYLE);

/** A page that tells the browser one outcome (the end of "Add to Slack", a refused single sign-on):
 * a title and markup the caller has escaped. */
export function noticePage(title: string, bodyHtml: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${NOTICE_STYLE}</style></head>` +
    `<body><h1>${escapeHtml(title)}</h1>${bodyHtml}</body></html>`
  );
}
