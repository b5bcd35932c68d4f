// The provider of the stack's Chime SDK voice resources (infra/chime-resources/handler.ts): the real
// Chime SDK Voice client against a stand-in of its REST API on loopback, and CloudFormation's
// pre-signed ResponseURL as a second server recording what the provider answers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEnvironment } from '../support/dependencies';

interface Seen {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

const chimeCalls: Seen[] = [];
const answers: Record<string, unknown>[] = [];
let chime: http.Server;
let cloudFormation: http.Server;
let responseUrl: string;
let restore: () => void;
let handler: (request: Record<string, unknown>) => Promise<void>;

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function reading(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** What the Chime SDK answers each operation, as its API reference documents (status, body). */
function answer(method: string, path: string): [number, unknown] {
  if (method === 'POST' && path === '/sip-media-applications') return [201, { SipMediaApplication: { SipMediaApplicationId: 'sma-1' } }];
  if (method === 'DELETE' && path.startsWith('/sip-media-applications/')) return [204, null];
  if (method === 'GET' && path.startsWith('/search')) return [200, { E164PhoneNumbers: ['+12065550123'] }];
  if (method === 'POST' && path === '/phone-number-orders')
    return [201, { PhoneNumberOrder: { PhoneNumberOrderId: 'order-1', Status: 'Processing' } }];
  if (method === 'GET' && path === '/phone-number-orders/order-1')
    return [200, { PhoneNumberOrder: { PhoneNumberOrderId: 'order-1', Status: 'Successful' } }];
  if (method === 'DELETE' && path.startsWith('/phone-numbers/')) return [204, null];
  if (method === 'POST' && path === '/sip-rules') return [201, { SipRule: { SipRuleId: 'rule-1' } }];
  return [404, { Code: 'NotFoundException', Message: `no ${method} ${path}` }];
}

beforeAll(async () => {
  chime = http.createServer((req, res) => {
    void reading(req).then((text) => {
      chimeCalls.push({ method: req.method!, path: req.url!, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
      const [status, body] = answer(req.method!, req.url!);
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 404 ? { 'x-amzn-errortype': 'NotFoundException' } : {}) });
      res.end(body === null ? '' : JSON.stringify(body));
    });
  });
  cloudFormation = http.createServer((req, res) => {
    void reading(req).then((text) => {
      answers.push(JSON.parse(text) as Record<string, unknown>);
      res.writeHead(200).end();
    });
  });
  const chimeUrl = await listen(chime);
  responseUrl = `${await listen(cloudFormation)}/response`;
  restore = changeEnvironment({
    AWS_ENDPOINT_URL_CHIME_SDK_VOICE: chimeUrl,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
  });
  ({ handler } = (await import('../../infra/chime-resources/handler')) as unknown as { handler: typeof handler });
});

afterAll(async () => {
  restore?.();
  await new Promise((resolve) => chime?.close(resolve));
  await new Promise((resolve) => cloudFormation?.close(resolve));
});

const request = (requestType: string, properties: Record<string, string>, physicalId?: string) => ({
  RequestType: requestType,
  ResponseURL: responseUrl,
  StackId: 'stack',
  RequestId: `request-${answers.length}`,
  LogicalResourceId: 'Resource',
  ...(physicalId ? { PhysicalResourceId: physicalId } : {}),
  ResourceProperties: properties,
});

describe('the Chime SDK resources provider', () => {
  it('creates the SIP media application on the function and answers its id; deletes it by that id', async () => {
    await handler(
      request('Create', { Kind: 'SipMediaApplication', Name: 'oncall-calls', LambdaArn: 'arn:aws:lambda:us-east-1:1:function:f' }),
    );
    expect(chimeCalls.at(-1)).toEqual({
      method: 'POST',
      path: '/sip-media-applications',
      body: { AwsRegion: 'us-east-1', Name: 'oncall-calls', Endpoints: [{ LambdaArn: 'arn:aws:lambda:us-east-1:1:function:f' }] },
    });
    expect(answers.at(-1)).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'sma-1', Data: { SipMediaApplicationId: 'sma-1' } });
    await handler(request('Delete', { Kind: 'SipMediaApplication' }, 'sma-1'));
    expect(chimeCalls.at(-1)).toMatchObject({ method: 'DELETE', path: '/sip-media-applications/sma-1' });
    expect(answers.at(-1)).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'sma-1' });
  });

  it('orders a number in the area code and waits for the order; releases it with the stack, but never a number it was given', async () => {
    const before = chimeCalls.length;
    await handler(request('Create', { Kind: 'PhoneNumber', AreaCode: '206' }));
    expect(chimeCalls.slice(before).map((c) => `${c.method} ${c.path.split('?')[0]}`)).toEqual([
      'GET /search',
      'POST /phone-number-orders',
      'GET /phone-number-orders/order-1',
    ]);
    expect(chimeCalls[before + 1].body).toEqual({ ProductType: 'SipMediaApplicationDialIn', E164PhoneNumbers: ['+12065550123'] });
    expect(answers.at(-1)).toMatchObject({
      Status: 'SUCCESS',
      PhysicalResourceId: 'ordered:+12065550123',
      Data: { PhoneNumber: '+12065550123' },
    });
    await handler(request('Delete', { Kind: 'PhoneNumber', AreaCode: '206' }, 'ordered:+12065550123'));
    expect(chimeCalls.at(-1)).toMatchObject({ method: 'DELETE', path: `/phone-numbers/${encodeURIComponent('+12065550123')}` });

    const given = chimeCalls.length;
    await handler(request('Create', { Kind: 'PhoneNumber', PhoneNumber: '+12065550100' }));
    expect(answers.at(-1)).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: '+12065550100', Data: { PhoneNumber: '+12065550100' } });
    await handler(request('Delete', { Kind: 'PhoneNumber', PhoneNumber: '+12065550100' }, '+12065550100'));
    expect(chimeCalls.length).toBe(given);
  });

  it('creates the SIP rule sending the number to the application', async () => {
    await handler(
      request('Create', { Kind: 'SipRule', Name: 'oncall-inbound', PhoneNumber: '+12065550100', SipMediaApplicationId: 'sma-1' }),
    );
    expect(chimeCalls.at(-1)).toEqual({
      method: 'POST',
      path: '/sip-rules',
      body: {
        Name: 'oncall-inbound',
        TriggerType: 'ToPhoneNumber',
        TriggerValue: '+12065550100',
        Disabled: false,
        TargetApplications: [{ SipMediaApplicationId: 'sma-1', Priority: 1, AwsRegion: 'us-east-1' }],
      },
    });
    expect(answers.at(-1)).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'rule-1' });
  });

  it('answers FAILED with the reason when the service refuses, and a delete of a resource never created succeeds', async () => {
    await handler(request('Update', { Kind: 'SipRule', Name: 'x', PhoneNumber: '+1', SipMediaApplicationId: 'sma-1' }, 'rule-unknown'));
    expect(answers.at(-1)).toMatchObject({
      Status: 'FAILED',
      PhysicalResourceId: 'rule-unknown',
      Reason: expect.stringMatching(/no PUT \/sip-rules\/rule-unknown/),
    });
    // A create that failed left no rule: CloudFormation's delete of it on rollback must not fail too.
    await handler(request('Delete', { Kind: 'SipRule' }, 'failed-request-0'));
    expect(answers.at(-1)).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'failed-request-0' });
  });
});
