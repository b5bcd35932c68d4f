// The local stand-in for the console's S3 bucket behind CloudFront: GET (and HEAD) of `/`,
// `/index.html` and `/assets/<file>` from a built console folder, with the deployed headers
// (content type, caching, Content-Security-Policy) and gzip when the browser accepts it. Every other
// request is left to the API, exactly as the distribution routes it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { CACHE_CONTROL, CONTENT_TYPES, SECURITY_HEADERS, isConsolePath } from '../console';

interface StoredFile {
  body: Buffer;
  gzip: Buffer | null;
  headers: Record<string, string>;
}

export interface ConsoleSite {
  /** Answers the request when it is the console's; false leaves it to the API. */
  serve(req: IncomingMessage, res: ServerResponse, method: string, path: string): boolean;
}

const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.map', '.svg']);

function load(dir: string, relative: string, cacheControl: string): StoredFile {
  const body = readFileSync(path.join(dir, relative));
  const extension = path.extname(relative);
  return {
    body,
    gzip: COMPRESSIBLE.has(extension) ? gzipSync(body, { level: 9 }) : null,
    headers: {
      'content-type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
      'cache-control': cacheControl,
      ...SECURITY_HEADERS,
    },
  };
}

/** Reads the built console once (it is small); a rebuild needs a restart, as a deploy would. */
export function consoleSite(dir: string): ConsoleSite {
  if (!existsSync(path.join(dir, 'index.html'))) throw new Error(`console: no build in ${dir} (index.html missing)`);
  const files = new Map<string, StoredFile>();
  const page = load(dir, 'index.html', CACHE_CONTROL.page);
  files.set('/', page);
  files.set('/index.html', page);
  for (const name of readdirSync(path.join(dir, 'assets'))) files.set(`/assets/${name}`, load(dir, `assets/${name}`, CACHE_CONTROL.asset));

  return {
    serve(req, res, method, requestPath) {
      if ((method !== 'GET' && method !== 'HEAD') || !isConsolePath(requestPath)) return false;
      const file = files.get(requestPath);
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS });
        res.end(method === 'HEAD' ? undefined : 'Not found');
        return true;
      }
      const gzip = file.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) ? file.gzip : null;
      const body = gzip ?? file.body;
      res.writeHead(200, {
        ...file.headers,
        ...(file.gzip ? { vary: 'accept-encoding' } : {}),
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        'content-length': String(body.length),
      });
      res.end(method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}
