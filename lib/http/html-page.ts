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
