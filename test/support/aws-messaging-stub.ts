// The edge mock of AWS's messaging services: a local HTTP server speaking the wire protocols the
// real SDK clients use, standing in for SES v2 (restJson: POST /v2/email/outbound-emails) and End
// User Messaging SMS and Voice v2 (awsJson1_0: POST / with X-Amz-Target PinpointSMSVoiceV2.<Op>),
// and the Amazon Chime SDK Voice's CreateSipMediaApplicationCall (restJson: POST
// /sip-media-applications/<id>/calls, 201 with the call's TransactionId), which moto does not
// implement. It records every request and can refuse the next ones with an AWS error, as the services
// do. Point the clients at it with AWS_ENDPOINT_URL_SESV2, AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2 and
// AWS_ENDPOINT_URL_CHIME_SDK_VOICE (the SDK's own per-service endpoint variables).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AwsCall {
  service: 'sesv2' | 'sms-voice-v2' | 'chime-sdk-voice';
  operation: string;
  body: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
  /** The MessageId (a call's TransactionId) answered, or null when the call was refused. */
  messageId: string | null;
  /** When the request arrived (epoch ms, wall time). */
  at: number;
}

export interface AwsMessagingStub {
  url: string;
  calls: AwsCall[];
  /** The next calls of `operation` are refused with this AWS error (status 400 unless given). */
  refuse(operation: string, error: { type: string; message: string; status?: number }): void;
  /** Calls are answered again. */
  accept(operation: string): void;
  close(): Promise<void>;
}

export async function startAwsMessagingStub(): Promise<AwsMessagingStub> {
  const calls: AwsCall[] = [];
  const refusals = new Map<string, { type: string; message: string; status?: number }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      const target = req.headers['x-amz-target'];
      const ses = req.method === 'POST' && req.url === '/v2/email/outbound-emails';
      const sms = req.method === 'POST' && typeof target === 'string' && target.startsWith('PinpointSMSVoiceV2.');
      const chime = req.method === 'POST' ? /^\/sip-media-applications\/([^/?]+)\/calls$/.exec(req.url ?? '') : null;
      if (chime) {
        answerChime(res, decodeURIComponent(chime[1]), body, req.headers);
        return;
      }
      if (!ses && !sms) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"unknown operation"}');
        return;
      }
      const operation = ses ? 'SendEmail' : (target as string).split('.')[1];
      const refusal = refusals.get(operation);
      const call: AwsCall = {
        service: ses ? 'sesv2' : 'sms-voice-v2',
        operation,
        body,
        headers: req.headers,
        messageId: null,
        at: Date.now(),
      };
      calls.push(call);
      if (refusal) {
        if (ses) {
          res
            .writeHead(refusal.status ?? 400, { 'content-type': 'application/json', 'x-amzn-errortype': refusal.type })
            .end(JSON.stringify({ message: refusal.message }));
        } else {
          res
            .writeHead(refusal.status ?? 400, { 'content-type': 'application/x-amz-json-1.0' })
            .end(JSON.stringify({ __type: refusal.type, message: refusal.message }));
        }
        return;
      }
      call.messageId = ses ? `ses-${randomUUID()}` : `eum-${randomUUID()}`;
      res
        .writeHead(200, { 'content-type': ses ? 'application/json' : 'application/x-amz-json-1.0' })
        .end(JSON.stringify({ MessageId: call.messageId }));
    });
  });
  function answerChime(res: http.ServerResponse, applicationId: string, body: Record<string, unknown>, headers: http.IncomingHttpHeaders) {
    const call: AwsCall = {
      service: 'chime-sdk-voice',
      operation: 'CreateSipMediaApplicationCall',
      body: { ...body, SipMediaApplicationId: applicationId },
      headers,
      messageId: null,
      at: Date.now(),
    };
    calls.push(call);
    const refusal = refusals.get(call.operation);
    if (refusal) {
      res
        .writeHead(refusal.status ?? 400, { 'content-type': 'application/json', 'x-amzn-errortype': refusal.type })
        .end(JSON.stringify({ Code: refusal.type, Message: refusal.message }));
      return;
    }
    call.messageId = randomUUID();
    res
      .writeHead(201, { 'content-type': 'application/json' })
      .end(JSON.stringify({ SipMediaApplicationCall: { TransactionId: call.messageId } }));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    refuse: (operation, error) => void refusals.set(operation, error),
    accept: (operation) => void refusals.delete(operation),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
