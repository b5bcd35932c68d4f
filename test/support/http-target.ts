// A local HTTP server that records what it receives, for automations and outgoing webhooks: each
// request's method, URL, headers and raw body, and an answer chosen per request by the test.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Answer = { status: number; body?: string; delayMs?: number; headers?: Record<string, string> };

export interface HttpTarget {
  url: string;
  received: Received[];
  /** Connections accepted (a refused target must see none). */
  connections: number;
  /** Decides the answer to each request (default 200 "ok"). */
  answer: (request: Received, index: number) => Answer;
  close(): Promise<void>;
}

export async function startHttpTarget(): Promise<HttpTarget> {
  const target: HttpTarget = {
    url: '',
    received: [],
    connections: 0,
    answer: () => ({ status: 200, body: 'ok' }),
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      target.received.push(received);
      const answer = target.answer(received, target.received.length - 1);
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });
  server.on('connection', () => {
    target.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  target.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return target;
}

/** A target started before the test file's tests and closed after them: call the result to reach it. */
export function useHttpTarget(): () => HttpTarget {
  let target: HttpTarget | undefined;
  beforeAll(async () => {
    target = await startHttpTarget();
  });
  afterAll(async () => {
    await target?.close();
  });
  return () => {
    if (!target) throw new Error('the HTTP target starts before the tests');
    return target;
  };
}
