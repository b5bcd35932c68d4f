// Real requests to local servers only (127.0.0.1 and 127.0.0.2): allowed with allowPrivateTargets,
// refused without it, and the servers count connections to prove that a refusal sends nothing.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OutboundRequestInvalid, OutboundTargetRefused, guardedLookup, sendOutbound } from '../../lib/outbound';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

class TestServer {
  connections = 0;
  received: Received[] = [];
  private readonly server: http.Server;

  constructor(
    private readonly host: string,
    handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
  ) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        handler(req, res, body);
      });
    });
    this.server.on('connection', () => this.connections++);
  }

  start(): Promise<void> {
    return new Promise((resolve) => this.server.listen(0, this.host, resolve));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/'): string {
    return `http://${this.host}:${this.port}${path}`;
  }

  reset(): void {
    this.connections = 0;
    this.received = [];
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let other: TestServer;
const server = new TestServer('127.0.0.1', (req, res, body) => {
  const path = req.url!.split('?')[0];
  if (path === '/echo') {
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-test', 'yes');
    res.end(JSON.stringify({ method: req.method, url: req.url, body, authorization: req.headers.authorization ?? null }));
  } else if (path === '/big') {
    res.end('é'.repeat(50_000)); // 100 000 bytes, two per character
  } else if (path === '/hang') {
    // Never answers.
  } else if (path === '/old') {
    res.writeHead(302, { location: '/echo?moved=1' }).end();
  } else if (path === '/see-other') {
    res.writeHead(303, { location: '/echo' }).end();
  } else if (path === '/temporary') {
    res.writeHead(307, { location: '/echo' }).end();
  } else if (path === '/loop') {
    res.writeHead(301, { location: '/loop' }).end();
  } else if (path === '/elsewhere') {
    res.writeHead(302, { location: other.url('/stolen') }).end();
  } else {
    res.writeHead(404).end('not here');
  }
});

beforeAll(async () => {
  other = new TestServer('127.0.0.2', (_req, res) => res.end('should never be reached'));
  await Promise.all([server.start(), other.start()]);
});
afterAll(async () => {
  await Promise.all([server.stop(), other.stop()]);
});
beforeEach(() => {
  server.reset();
  other.reset();
});

const allow = { allowPrivateTargets: true };

describe('the guarded outbound client refuses private targets before sending anything', () => {
  it('refuses 127.0.0.1 and its other spellings without a connection', async () => {
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '0177.0.0.1', '127.1', '[::ffff:127.0.0.1]']) {
      const attempt = sendOutbound({ url: `http://${host}:${server.port}/echo` });

      await expect(attempt, host).rejects.toBeInstanceOf(OutboundTargetRefused);
      await expect(attempt).rejects.toMatchObject({ status: 400, code: 'target_refused' });
    }
    expect(server.connections).toBe(0);
  });

  it('refuses a host name that resolves to a loopback address (localhost)', async () => {
    const attempt = sendOutbound({ url: `http://localhost:${server.port}/echo` });

    await expect(attempt).rejects.toThrow(/the target localhost is refused: it resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(server.connections).toBe(0);
  });

  it('checks the addresses the socket connects to, in the lookup itself (no DNS-rebinding gap)', async () => {
    let lookups = 0;
    // A name that would pass a check made earlier: it only turns private when the socket asks.
    const rebinding = async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 }];
    };

    await expect(sendOutbound({ url: `http://rebind.test:${server.port}/echo` }, { resolve: rebinding })).rejects.toThrow(
      /it resolves to 127\.0\.0\.1, a loopback address/,
    );
    expect(lookups).toBe(1); // one look-up, the connection's own: nothing resolves the name a second time behind the check
    expect(server.connections).toBe(0);

    // With the guard off, the socket goes to exactly the address the hook returned.
    const result = await sendOutbound({ url: `http://rebind.test:${server.port}/echo` }, { ...allow, resolve: rebinding });
    expect(result).toMatchObject({ status: 200, remote_address: '127.0.0.1' });
    expect(server.received[0].headers.host).toBe(`rebind.test:${server.port}`);
  });

  it('the lookup hook refuses a name when any of its addresses is forbidden, and hands over only checked ones', async () => {
    const call = (addresses: { address: string; family: number }[], all: boolean) =>
      new Promise<{ error: Error | null; result: unknown }>((resolve) => {
        guardedLookup({ allowPrivate: false, resolve: async () => addresses })('mixed.test', { all }, (error, result) =>
          resolve({ error, result }),
        );
      });

    const mixed = await call(
      [
        { address: '93.184.215.14', family: 4 },
        { address: '10.1.2.3', family: 4 },
      ],
      true,
    );
    expect(mixed.error).toBeInstanceOf(OutboundTargetRefused);
    expect(mixed.error!.message).toBe('the target mixed.test is refused: it resolves to 10.1.2.3, a private (RFC 1918) address');

    const mapped = await call([{ address: '::ffff:169.254.169.254', family: 6 }], false);
    expect(mapped.error!.message).toMatch(/cloud metadata/);

    const fine = await call(
      [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
      true,
    );
    expect(fine).toEqual({
      error: null,
      result: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
    });
  });

  // Only loopback targets here, so that even a broken guard sends nothing off this machine; the
  // metadata, private and other ranges are covered by the address guard's own tests.
  it('refuses every loopback literal, IPv6 included, without a connection', async () => {
    for (const url of [
      other.url('/'),
      `http://0x7f000002:${other.port}/`,
      `http://127.0.0.2:${other.port}/?x=1`,
      `http://[::1]:${other.port}/`,
    ]) {
      await expect(sendOutbound({ url }), url).rejects.toBeInstanceOf(OutboundTargetRefused);
    }
    expect(other.connections).toBe(0);
  });
});

describe('the guarded outbound client performs requests', () => {
  it('sends method, headers, query parameters, a JSON body and basic auth; returns status, duration, headers and an excerpt', async () => {
    const result = await sendOutbound(
      {
        url: server.url('/echo?fixed=1'),
        method: 'post',
        headers: { 'X-Custom': 'abc', Host: 'evil.example' },
        params: { q: 'disk full', tags: ['a', 'b'], skip: null },
        data: { alert: 'alt_1', count: 2 },
        auth: { username: 'bot', password: 's3cret-pa55' },
      },
      allow,
    );

    expect(result).toMatchObject({ method: 'POST', status: 200, truncated: false, redirects: [], remote_address: '127.0.0.1' });
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    expect(result.headers['x-test']).toBe('yes');
    const echoed = JSON.parse(result.excerpt);
    expect(echoed).toMatchObject({ method: 'POST', url: '/echo?fixed=1&q=disk+full&tags=a&tags=b', body: '{"alert":"alt_1","count":2}' });
    expect(echoed.authorization).toBe(`Basic ${Buffer.from('bot:s3cret-pa55').toString('base64')}`);
    const received = server.received[0];
    expect(received.headers['x-custom']).toBe('abc');
    expect(received.headers.host).toBe(`127.0.0.1:${server.port}`);
    expect(received.headers['content-type']).toBe('application/json');
  });

  it('never returns the basic-auth password, even when the server echoes it', async () => {
    const result = await sendOutbound(
      { url: server.url('/see-other'), method: 'POST', data: 'x', auth: { username: 'bot', password: 'hunter2-secret' } },
      allow,
    );
    const token = Buffer.from('bot:hunter2-secret').toString('base64');
    const text = JSON.stringify({ ...result, excerpt: '' });

    expect(text).not.toContain('hunter2-secret');
    expect(text).not.toContain(token);
  });

  it('credentials in the URL become basic auth and leave the URL', async () => {
    const result = await sendOutbound({ url: `http://bot:pa55word@127.0.0.1:${server.port}/echo` }, allow);

    expect(result.url).toBe(server.url('/echo'));
    expect(JSON.parse(result.excerpt).authorization).toBe(`Basic ${Buffer.from('bot:pa55word').toString('base64')}`);
  });

  it('sends form-encoded data when the content-type asks for it; no body with GET', async () => {
    const form = await sendOutbound(
      {
        url: server.url('/echo'),
        method: 'PUT',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        data: { a: '1', b: { c: 2 } },
      },
      allow,
    );
    expect(JSON.parse(form.excerpt).body).toBe('a=1&b=%7B%22c%22%3A2%7D');

    const get = await sendOutbound({ url: server.url('/echo'), data: { ignored: true } }, allow);
    expect(JSON.parse(get.excerpt)).toMatchObject({ method: 'GET', body: '' });
  });

  it('bounds the response excerpt and drops the rest', async () => {
    const result = await sendOutbound({ url: server.url('/big') }, { ...allow, maxExcerptBytes: 2048 });

    expect(result.status).toBe(200);
    expect(result.truncated).toBe(true);
    expect(result.excerpt).toBe('é'.repeat(1024));
  });

  it('honours the timeout', async () => {
    // The client's timer is the only timer faked: it fires when the test moves fake time, not when a
    // loaded machine gets round to it. The request is in the server's hands (which never answers)
    // before time moves; it is still waiting 1 ms short of the timeout, and ends at it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const call = sendOutbound({ url: server.url('/hang') }, { ...allow, timeoutMs: 200 });
      const deadline = Date.now() + 10_000;
      while (!server.received.some((r) => r.url === '/hang')) {
        if (Date.now() > deadline) throw new Error('the request did not reach the server');
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(199);
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(1);
      expect(vi.getTimerCount()).toBe(0);
      const result = await call;
      expect(result).toMatchObject({ status: null, error: { code: 'timeout', message: 'no complete response within 200 ms' } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows a few redirects on the same host', async () => {
    const result = await sendOutbound({ url: server.url('/old') }, allow);

    expect(result).toMatchObject({ status: 200, url: server.url('/echo?moved=1'), redirects: [server.url('/echo?moved=1')] });
  });

  it('a 303 turns a POST into a GET without body; a 307 keeps both', async () => {
    const seeOther = await sendOutbound({ url: server.url('/see-other'), method: 'POST', data: { a: 1 } }, allow);
    expect(JSON.parse(seeOther.excerpt)).toMatchObject({ method: 'GET', body: '' });

    const temporary = await sendOutbound({ url: server.url('/temporary'), method: 'POST', data: { a: 1 } }, allow);
    expect(JSON.parse(temporary.excerpt)).toMatchObject({ method: 'POST', body: '{"a":1}' });
  });

  it('does not follow a redirect to another host, and says so', async () => {
    const result = await sendOutbound({ url: server.url('/elsewhere') }, allow);

    expect(result).toMatchObject({
      status: 302,
      redirects: [],
      error: { code: 'redirect_refused', message: `redirect to another host (127.0.0.2:${other.port}) not followed` },
    });
    expect(result.headers.location).toBe(other.url('/stolen'));
    expect(other.connections).toBe(0);
  });

  it('stops after too many redirects', async () => {
    const result = await sendOutbound({ url: server.url('/loop') }, { ...allow, maxRedirects: 3 });

    expect(result).toMatchObject({ status: 301, error: { code: 'too_many_redirects' } });
    expect(result.redirects).toHaveLength(3);
  });

  it('reports a refused connection as a network error on the result', async () => {
    const closed = new TestServer('127.0.0.1', () => undefined);
    await closed.start();
    const port = closed.port;
    await closed.stop();
    const result = await sendOutbound({ url: `http://127.0.0.1:${port}/` }, allow);

    expect(result).toMatchObject({ status: null, error: { code: 'network', message: expect.stringMatching(/ECONNREFUSED/) } });
  });

  it('refuses requests it cannot send as invalid', async () => {
    await expect(sendOutbound({ url: 'ftp://example.com/' })).rejects.toBeInstanceOf(OutboundRequestInvalid);
    await expect(sendOutbound({ url: 'not a url' })).rejects.toThrow('url is not a valid URL');
    await expect(sendOutbound({ url: server.url('/echo'), method: 'TRACE' }, allow)).rejects.toThrow(/method must be one of/);
    await expect(sendOutbound({ url: server.url('/echo'), headers: { 'x-bad': 'a\r\nInjected: 1' } }, allow)).rejects.toThrow(
      /cannot be sent/,
    );
    expect(server.connections).toBe(0);
  });
});
