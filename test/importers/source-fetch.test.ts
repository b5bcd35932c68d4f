// An importer's reader calls its source through the guarded outbound client
// (lib/importers/source-fetch.ts): an address the guard refuses is refused when the reader
// connects, whatever the name resolved to when the console checked it, and nothing reaches it; no
// redirect is followed; a source that stops answering fails the request at its deadline.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundTargetRefused } from '../../lib/outbound';
import { opsgenieSource } from '../../lib/importers/opsgenie/reader';
import { pagerDutySource } from '../../lib/importers/pagerduty/source';
import { sourceGet, SourceUnreachable } from '../../lib/importers/source-fetch';
import { opsgenieAccount } from './opsgenie-fixture';
import { OpsgenieStandIn } from './opsgenie-stand-in';

let server: http.Server;
let port = 0;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/ok' }).end();
      return;
    }
    if (req.url === '/silent') return; // never answers
    res.writeHead(200, { 'content-type': 'application/json', 'retry-after': '7' }).end(JSON.stringify({ ok: true, text: 'é'.repeat(3) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A name that resolves to loopback by the time the reader connects (as a rebinding DNS server answers). */
const rebound = async () => [{ address: '127.0.0.1', family: 4 }];

describe('a source GET', () => {
  it('reads the whole answer with its headers where private addresses are allowed', async () => {
    const answer = await sourceGet(
      `http://127.0.0.1:${port}/ok`,
      { accept: 'application/json' },
      { allowPrivateAddresses: true, timeoutMs: 5_000 },
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ ok: true, text: 'ééé' });
    expect(answer.header('Retry-After')).toBe('7');
  });

  it('refuses a loopback address, and a name that resolves to one when it connects, sending nothing', async () => {
    const before = seen.length;
    await expect(sourceGet(`http://127.0.0.1:${port}/ok`, {}, { allowPrivateAddresses: false, timeoutMs: 5_000 })).rejects.toBeInstanceOf(
      OutboundTargetRefused,
    );
    const byName = sourceGet(
      `http://opsgenie-proxy.example:${port}/ok`,
      {},
      { allowPrivateAddresses: false, timeoutMs: 5_000, resolve: rebound },
    );
    await expect(byName).rejects.toThrow(/opsgenie-proxy.example is refused: it resolves to 127\.0\.0\.1/);
    expect(seen.length).toBe(before);
    // The same name with private addresses allowed reaches the server: the refusal was the guard's.
    const allowed = await sourceGet(
      `http://opsgenie-proxy.example:${port}/ok`,
      {},
      { allowPrivateAddresses: true, timeoutMs: 5_000, resolve: rebound },
    );
    expect(allowed.status).toBe(200);
    expect(seen.length).toBe(before + 1);
  });

  it('follows no redirect, and gives up on a source that does not answer by its deadline', async () => {
    const options = { allowPrivateAddresses: true, timeoutMs: 300 };
    const redirect = sourceGet(`http://127.0.0.1:${port}/redirect`, {}, options);
    await expect(redirect).rejects.toBeInstanceOf(SourceUnreachable);
    await expect(redirect).rejects.toThrow(/redirects/);
    expect(seen).toContain('/redirect');
    expect(seen.filter((url) => url === '/ok').length).toBe(2); // the first test's and the allowed name's, none after the redirect
    await expect(sourceGet(`http://127.0.0.1:${port}/silent`, {}, options)).rejects.toThrow(/no complete response within 300 ms/);
  });
});

describe("the importers' readers", () => {
  let standIn: OpsgenieStandIn;
  beforeAll(async () => {
    standIn = new OpsgenieStandIn(opsgenieAccount(), 'ogkey-1');
    await standIn.start();
  });
  afterAll(() => standIn.stop());

  it('go through it: refused at a loopback source unless private addresses are allowed, and the key never sent', async () => {
    await expect(opsgenieSource({ allowPrivateAddresses: false, apiKey: 'ogkey-1', apiUrl: standIn.url }).read()).rejects.toBeInstanceOf(
      OutboundTargetRefused,
    );
    await expect(
      pagerDutySource({ allowPrivateAddresses: false, apiKey: 'pdkey-1', apiUrl: `http://127.0.0.1:${port}` }).read(),
    ).rejects.toBeInstanceOf(OutboundTargetRefused);
    expect(standIn.requests).toEqual([]);
    const snapshot = await opsgenieSource({ allowPrivateAddresses: true, apiKey: 'ogkey-1', apiUrl: standIn.url }).read();
    expect(snapshot.users.length).toBeGreaterThan(0);
    expect(standIn.requests.length).toBeGreaterThan(0);
  });
});
