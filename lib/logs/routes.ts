// The routes of the `logs` function (functions/http/logs.ts): logs on the earlier interface.
import { declareRoutes } from '../http/route-contract';
import { standardRoutes } from '../http/standard-routes';
import { createLogInput, LogEarlier } from './schemas';

export const logRoutes = declareRoutes(
  'logs',
  standardRoutes(
    '/log',
    {
      tag: 'Logs (earlier)',
      noun: 'log',
      plural: 'logs',
      item: LogEarlier,
      create: createLogInput,
      form: false,
      descriptions: {
        create: 'owner_id and source_id are prefix ids of objects of the account (400 naming the field otherwise).',
        list: 'Alert timelines and inbound webhook requests (subtype INCOMING, with their processing status) among them. Credential headers of stored requests are redacted.',
      },
    },
    { only: ['list', 'create', 'get'] },
  ),
);
