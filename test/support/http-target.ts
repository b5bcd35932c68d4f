// A local HTTP server that records what it receives, for automations and outgoing webhooks: each
// request's method, URL, headers and raw body, and an answer chosen per request by the test, given
// at once or when the test releases it (a receiver that hangs until told).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  /** The caller is still waiting for the answer: false once it was answered or the caller hung up. */
  open: boolean;
}

export type Answer = {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** The answer is held until this settles (the test releases the receiver). */
  until?: Promise<unknown>;
};

/** A gate for `Answer.until`: answers wait until `release()`. */
export function heldAnswers(): { until: Promise<void>; release: () => void } {
  let release = () => {};
  const until = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { until, release };
}

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
        open: true,
      };
      res.on('close', () => {
        received.open = false;
      });
      target.received.push(received);
      const answer = target.answer(received, target.received.length - 1);
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      };
      if (answer.until) void answer.until.then(reply, reply);
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
