// The local server serves the built console next to the API as the CloudFront distribution does:
// the page and its hashed assets with their content types, caching and security headers, GET only,
// and every API path of both interfaces still reaching the API unchanged.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATH_PATTERNS, CONTENT_SECURITY_POLICY, isApiPath, isConsolePath, matchesPathPattern } from '../../infra/console';
import { ROUTES } from '../../lib/api/route-table';
import { buildConsole, type ConsoleBuild } from '../../web/build';
import { startService, type TestService } from '../support/runtime';

let work: string;
let build: ConsoleBuild;
let service: TestService;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'console-site-'));
  build = await buildConsole(path.join(work, 'dist'));
  service = await startService({ consoleDir: build.outdir });
});

afterAll(async () => {
  await service?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the console build', () => {
  it('names its content-hashed script and style sheet, with integrity, and inlines nothing', () => {
    const html = readFileSync(path.join(build.outdir, 'index.html'), 'utf8');
    expect(build.script).toMatch(/^\/assets\/app-[A-Z0-9]+\.js$/);
    expect(build.style).toMatch(/^\/assets\/app-[A-Z0-9]+\.css$/);
    expect(html).toContain(`<script type="module" src="${build.script}" integrity="sha384-`);
    expect(html).toContain(`<link rel="stylesheet" href="${build.style}" integrity="sha384-`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
  });

  it('stays within 150 KB gzipped on first load', async () => {
    let total = 0;
    for (const file of ['/', build.script, build.style]) {
      const res = await fetch(`${service.url}${file}`, { headers: { 'accept-encoding': 'gzip' } });
      total += Number(res.headers.get('content-length'));
    }
    expect(total).toBeLessThan(150 * 1024);
  });
});

describe('the local server’s console files', () => {
  it('serves the page at / with the strict CSP, no-cache and HTML type', async () => {
    const res = await fetch(`${service.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain(build.script);
  });

  it('serves hashed assets as immutable with their types, gzipped when accepted', async () => {
    const js = await fetch(`${service.url}${build.script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const css = await fetch(`${service.url}${build.style}`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await css.text()).length).toBeGreaterThan(100);

    // Raw bytes over http, to see the encoding itself (fetch would decode it).
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      const url = new URL(`${service.url}${build.script}`);
      httpGet({ host: url.hostname, port: url.port, path: url.pathname, headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
    expect(raw.encoding).toBe('gzip');
    expect(gunzipSync(raw.body).toString('utf8')).toBe(readFileSync(path.join(build.outdir, build.script), 'utf8'));
  });

  it('answers an unknown asset 404 without reaching the API, and serves GET only', async () => {
    const missing = await fetch(`${service.url}/assets/app-NOPE.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const post = await fetch(`${service.url}/`, { method: 'POST' });
    expect(post.status).toBe(404);
    expect(post.headers.get('content-type')).toContain('application/json');
    expect(((await post.json()) as { errors: { message: string }[] }).errors[0].message).toBeTruthy();
  });

  it('leaves every API path of both interfaces to the API', async () => {
    expect(((await (await fetch(`${service.url}/health`)).json()) as { status: string }).status).toBe('ok');
    const v4 = await fetch(`${service.url}/api/v4/alerts`);
    expect(v4.status).toBe(401);
    expect(((await v4.json()) as { code: number }).code).toBe(401);
    const earlier = await service.admin.get('/alert?limit=1');
    expect(earlier.status).toBe(200);
    expect(earlier.body).toHaveProperty('total_count');
    const unknown = await fetch(`${service.url}/api/v4/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-security-policy')).toBeNull();
  });
});

describe('which paths are the API’s', () => {
  it('routes every route of the route table to the API, and none of the console’s paths', () => {
    for (const route of ROUTES) {
      const concrete = route.path.replace(/\{[^}]+\}/g, '01K0000000000000000000000');
      expect(isApiPath(concrete), concrete).toBe(true);
      expect(isConsolePath(concrete), concrete).toBe(false);
    }
    for (const path of ['/', '/index.html', '/assets/app-ABC.js']) {
      expect(isApiPath(path), path).toBe(false);
      expect(isConsolePath(path), path).toBe(true);
    }
    for (const path of ['/v2/enqueue', '/router/default-template/router', '/automation/x/run', '/notification', '/api/v4/openapi.json']) {
      expect(isApiPath(path), path).toBe(true);
    }
  });

  it('matches patterns as CloudFront does', () => {
    expect(matchesPathPattern('/alert*', '/alert/abc/acknowledge')).toBe(true);
    expect(matchesPathPattern('/health', '/healthz')).toBe(false);
    expect(matchesPathPattern('/public/*', '/public/login')).toBe(true);
    expect(API_PATH_PATTERNS.length).toBeLessThanOrEqual(24); // CloudFront: 25 behaviours with the default
  });
});
