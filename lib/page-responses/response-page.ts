// The page a one-click link opens: what the click will do and one button that does it (a POST to
// the same address, so link scanners that only GET change nothing), or what came of it. Every value
// is escaped; the page has no script at all and a strict Content-Security-Policy (its one style
// block allowed by hash), and the token in its address is kept out of referrers and caches.
import type * as z from 'zod';
import { escapeHtml, htmlPageHeaders } from '../http/html-page';
import type { ResponseView } from './respond-to-page';
import type { ResponseJson } from './schemas';

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}' +
  'h1{font-size:1.4rem}p.alert{background:#f4f4f4;padding:.75rem;border-radius:.4rem}' +
  'button{font-size:1.1rem;padding:.6rem 1.4rem;border:0;border-radius:.4rem;background:#1f5fbf;color:#fff;cursor:pointer}';

export const RESPONSE_PAGE_HEADERS: Record<string, string> = htmlPageHeaders(STYLE, { formAction: true });

export function responsePage(view: ResponseView): string {
  const alert = view.alert
    ? `<p class="alert">#${view.alert.tiny_id} · ${escapeHtml(view.alert.urgency)} · ${escapeHtml(view.alert.status)}<br><strong>${escapeHtml(view.alert.title)}</strong></p>`
    : '';
  // An empty action posts to this very address (the token stays in the path, never in a field).
  const form = view.action
    ? `<form method="post" action=""><button type="submit">${view.action === 'acknowledge' ? 'Acknowledge' : 'Reject'}</button></form>`
    : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(view.title)}</title><style>${STYLE}</style></head>` +
    `<body><h1>${escapeHtml(view.title)}</h1>${alert}<p>${escapeHtml(view.detail)}</p>${form}</body></html>`
  );
}

/** The JSON a client that asks for it (Accept: application/json) gets instead of the page. */
export function responseJson(view: ResponseView): z.input<typeof ResponseJson> {
  return { status: view.status, title: view.title, detail: view.detail, action: view.action, alert: view.alert };
}
