// A request that runs out of its function's time (middy answers just before Lambda would stop it)
// is the service being busy, not a fault to hide behind a 500: 503 with Retry-After on both interfaces.
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { BUSY_RETRY_AFTER_SECONDS, errorResult } from '../../lib/http/gateway-results';

/** What middy throws for a handler still running when its time is up (a real middy chain, 20 ms of time). */
async function timeoutOfMiddy(): Promise<unknown> {
  let release = () => {};
  const slow = middy(() => new Promise<void>((resolve) => (release = resolve)));
  try {
    await slow({}, { getRemainingTimeInMillis: () => 20 } as unknown as Context);
  } catch (error) {
    return error;
  } finally {
    release();
  }
  throw new Error('middy did not time the handler out');
}

describe('a request out of time', () => {
  it('is a 503 with Retry-After on /api/v4, with the code in the body', async () => {
    const result = errorResult(await timeoutOfMiddy(), '/api/v4/alerts');
    expect(result.statusCode).toBe(503);
    expect(result.headers?.['retry-after']).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    expect(JSON.parse(result.body!)).toEqual({ errors: [{ message: 'The service is busy: try again shortly' }], code: 503 });
  });

  it('is a 503 with Retry-After on the earlier interface, without a code', async () => {
    const result = errorResult(await timeoutOfMiddy(), '/alert');
    expect(result.statusCode).toBe(503);
    expect(result.headers?.['retry-after']).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    expect(JSON.parse(result.body!)).toEqual({ errors: [{ message: 'The service is busy: try again shortly' }] });
  });

  it('leaves another error named TimeoutError a 500 (only middy’s own timeout means busy)', () => {
    const other = Object.assign(new Error('socket timed out'), { name: 'TimeoutError' });
    expect(errorResult(other, '/api/v4/alerts').statusCode).toBe(500);
  });
});
