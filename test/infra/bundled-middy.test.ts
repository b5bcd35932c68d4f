// @middy/core as the functions' bundles carry it (infra/bundling.ts aliases it to
// infra/bundled/middy-core.ts): the same chains run through the real package and through the cut,
// and every step they call, in order, with what it saw, and every answer and error must be the same.
// The API's own chain (lib/api/handler.ts, with the answers-that-fit middlewares) runs through both too.
import realMiddy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import cutMiddy from '../../infra/bundled/middy-core';
import { answersThatFit } from '../../lib/http/compression';

type Factory = (handler?: unknown) => {
  use(middleware: unknown): ReturnType<Factory>;
  handler(handler: unknown): ReturnType<Factory>;
  (event?: unknown, context?: unknown): Promise<unknown>;
};
const real = realMiddy as unknown as Factory;
const cut = cutMiddy as unknown as Factory;

interface Outcome {
  log: string[];
  answer?: unknown;
  error?: { name: string; message: string; cause?: unknown; original?: string };
}

/** Runs one scenario (built on the given package) and records what happened. */
async function outcomeOf(
  scenario: (middy: Factory, log: string[]) => { chain: ReturnType<Factory>; event?: unknown; context?: unknown },
  middy: Factory,
): Promise<Outcome> {
  const log: string[] = [];
  const { chain, event, context } = scenario(middy, log);
  try {
    return { log, answer: await chain(event, context) };
  } catch (thrown) {
    const error = thrown as Error & { originalError?: Error };
    return { log, error: { name: error.name, message: error.message, cause: error.cause, original: error.originalError?.message } };
  }
}

type Request = { event: unknown; response: unknown; error?: Error; context: unknown };
const step = (log: string[], name: string, act?: (request: Request) => unknown) => (request: Request) => {
  log.push(`${name} response=${JSON.stringify(request.response)} error=${request.error?.message ?? '-'}`);
  return act?.(request);
};

const SCENARIOS: Record<string, (middy: Factory, log: string[]) => { chain: ReturnType<Factory>; event?: unknown; context?: unknown }> = {
  'steps in order: before as used, after and onError reversed': (middy, log) => ({
    chain: middy()
      .use({ before: step(log, 'b1'), after: step(log, 'a1'), onError: step(log, 'e1') })
      .use([
        { before: step(log, 'b2'), after: step(log, 'a2', (r) => void (r.response = `${String(r.response)}+a2`)) },
        { after: step(log, 'a3') },
      ])
      .handler((event: unknown) => {
        log.push(`handler ${JSON.stringify(event)}`);
        return Promise.resolve('answer');
      }),
    event: { id: 1 },
  }),
  'a before step that returns answers at once: no handler, no after': (middy, log) => ({
    chain: middy()
      .use({ before: step(log, 'b1', () => 'early'), after: step(log, 'a1') })
      .use({ before: step(log, 'b2') })
      .handler(() => log.push('handler')),
  }),
  'an after step that returns ends the after stage with its value': (middy, log) => ({
    chain: middy()
      .use({ after: step(log, 'a1') })
      .use({ after: step(log, 'a2', () => 'replaced') })
      .use({ after: step(log, 'a3') })
      .handler(() => Promise.resolve('answer')),
  }),
  'a handler error goes to every error step, which may answer': (middy, log) => ({
    chain: middy()
      .use({ onError: step(log, 'e1') })
      .use({ onError: step(log, 'e2', (r) => void (r.response = { statusCode: 500, body: r.error?.message })) })
      .use({ after: step(log, 'a1'), onError: step(log, 'e3') })
      .handler(() => Promise.reject(new Error('boom'))),
  }),
  'an error nobody answers is thrown as it was': (middy, log) => ({
    chain: middy()
      .use({ onError: step(log, 'e1') })
      .handler(() => {
        throw new TypeError('bad');
      }),
  }),
  'an error step that throws carries the first error': (middy, log) => ({
    chain: middy()
      .use({
        onError: step(log, 'e1', () => {
          throw new Error('worse');
        }),
      })
      .handler(() => Promise.reject(new Error('bad'))),
  }),
  'an after step that throws undoes the answer and goes to the error steps': (middy, log) => ({
    chain: middy()
      .use({ onError: step(log, 'e1', (r) => void (r.response = `handled ${r.error?.message}`)) })
      .use({
        after: step(log, 'a1', (r) => {
          r.response = 'changed';
          throw new Error('after failed');
        }),
      })
      .handler(() => 'answer'),
  }),
  'an error step that returns ends the error stage with its value': (middy, log) => ({
    chain: middy()
      .use({ onError: step(log, 'e1') })
      .use({ onError: step(log, 'e2', () => 'from e2') })
      .handler(() => Promise.reject(new Error('bad'))),
  }),
  'a handler still running when the time is up: TimeoutError from @middy/core': (middy, log) => ({
    chain: middy()
      .use({ onError: step(log, 'e1') })
      .handler((_event: unknown, _context: unknown, { signal }: { signal: AbortSignal }) => {
        log.push(`handler aborted=${signal.aborted}`);
        return new Promise((resolve) => setTimeout(() => resolve(`late, aborted=${signal.aborted}`), 200));
      }),
    context: { getRemainingTimeInMillis: () => 30 },
  }),
  'a quick handler with time to spare is not cut short': (middy, log) => ({
    chain: middy()
      .use({ after: step(log, 'a1') })
      .handler(() => new Promise((resolve) => setTimeout(() => resolve('in time'), 5))),
    context: { getRemainingTimeInMillis: () => 2_000 },
  }),
};

describe('@middy/core in the bundles', () => {
  it.each(Object.keys(SCENARIOS))('%s: as the real package', async (name) => {
    const [expected, actual] = [await outcomeOf(SCENARIOS[name], real), await outcomeOf(SCENARIOS[name], cut)];
    expect(expected.log.length + (expected.answer === undefined ? 0 : 1) + (expected.error ? 1 : 0)).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
  });

  it('runs the API’s answers-that-fit middlewares as the real package (a large answer compressed, a small one as it is)', async () => {
    const chainOf = (middy: Factory, body: string) =>
      middy()
        .use(answersThatFit({ tooLarge: () => ({ statusCode: 422, body: 'too large' }) }))
        .handler(() => Promise.resolve({ statusCode: 200, headers: { 'content-type': 'application/json' }, body }));
    const event = { headers: { 'accept-encoding': 'gzip' }, rawPath: '/api/v4/alerts' } as unknown as APIGatewayProxyEventV2;
    for (const body of [JSON.stringify({ data: 'x'.repeat(5_000) }), '{"ok":true}']) {
      const [expected, actual] = [await chainOf(real, body)(event, {}), await chainOf(cut, body)(event, {})];
      expect(actual).toEqual(expected);
    }
  });

  it('refuses what it leaves out: response streaming', () => {
    expect(() => cut({ streamifyResponse: true })).toThrow(/streamifyResponse/);
  });
});
