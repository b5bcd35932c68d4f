// The SDK clients' two socket pools (lib/sdk.ts): in the local runtime the queue workers' calls run
// in the background lane, so a burst of them queued for sockets never stands in front of a request's
// call. A loopback server holds every call it receives until the test lets them go; the background
// lane's sockets are all taken (and more calls wait for one), and a foreground call still goes out
// at once and is answered.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { LaneHandler, inBackground, runInBackground } from '../../lib/sdk';

const ANSWER = JSON.stringify({ Item: { pk: { S: 'p' }, sk: { S: 's' } } });

/** A DynamoDB stand-in that answers a call only when told: `held` counts the calls waiting. */
async function holdingServer(holdFirst: number) {
  const waiting: Array<() => void> = [];
  let received = 0;
  let arrived = () => {};
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = () => res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(ANSWER);
      received += 1;
      if (received <= holdFirst) waiting.push(answer);
      else answer();
      arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get held() {
      return waiting.length;
    },
    /** Resolves once `n` calls have been held. */
    async heldCount(n: number) {
      while (waiting.length < n) await new Promise<void>((resolve) => (arrived = resolve));
    },
    releaseAll: () => waiting.splice(0).forEach((answer) => answer()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('the SDK clients’ lanes', () => {
  it('answers a foreground call while every background socket is taken and more background calls wait', async () => {
    const server = await holdingServer(2);
    closers.push(server.close, server.releaseAll);
    const client = new DynamoDBClient({
      endpoint: server.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
      requestHandler: new LaneHandler({ foreground: 2, background: 2 }),
    });
    closers.push(() => client.destroy());
    const get = () => client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'p' }, sk: { S: 's' } } }));

    const background = runInBackground(() => Array.from({ length: 4 }, get));
    await server.heldCount(2);

    const foreground = await get();
    expect(foreground.Item?.pk?.S).toBe('p');
    // The two background calls beyond the lane's sockets are still waiting for one: none reached the server.
    expect(server.held).toBe(2);

    server.releaseAll();
    const answered = await Promise.all(background);
    expect(answered.map((out) => out.Item?.sk?.S)).toEqual(['s', 's', 's', 's']);
  });

  it('marks work run in the background, and nothing else', async () => {
    expect(inBackground()).toBe(false);
    const seen = await runInBackground(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return inBackground();
    });
    expect(seen).toBe(true);
    expect(inBackground()).toBe(false);
  });
});
