// The SES client and the one command we send, apart from ses.ts so that a function loads them with
// its first e-mail (a dynamic import, its own chunk) and a function that sends none never does.
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { clientPerEndpoint, withoutSdkLogging } from '../../sdk';
import { MESSAGING_CLIENT_DEFAULTS } from './aws-errors';

export { SendEmailCommand };

export const ses: () => SESv2Client = clientPerEndpoint('AWS_ENDPOINT_URL_SESV2', () => {
  const client = new SESv2Client(MESSAGING_CLIENT_DEFAULTS);
  withoutSdkLogging(client);
  return client;
});
