// The SES client and the one command we send, apart from ses.ts so that a function loads them with
// its first e-mail (a dynamic import, its own chunk) and a function that sends none never does.
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { withoutSdkLogging } from '../../sdk';
import { MESSAGING_CLIENT_DEFAULTS } from './aws-errors';

export { SendEmailCommand };

let client: SESv2Client | undefined;
let clientEndpoint: string | undefined;

export function ses(): SESv2Client {
  // Tests and the local runtime may point the process at another endpoint between runs.
  const endpoint = process.env.AWS_ENDPOINT_URL_SESV2 ?? process.env.AWS_ENDPOINT_URL;
  if (!client || clientEndpoint !== endpoint) {
    client?.destroy();
    client = new SESv2Client(MESSAGING_CLIENT_DEFAULTS);
    withoutSdkLogging(client);
    clientEndpoint = endpoint;
  }
  return client;
}
