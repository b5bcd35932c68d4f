// One DynamoDB client per process, for the endpoint of AWS_ENDPOINT_URL(_DYNAMODB) (lib/sdk.ts
// clientPerEndpoint), sending the table's commands in plain values (lib/store/commands.ts).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '../config';
import { clientPerEndpoint, resolveStackOnce, serviceClientConfig, trimServiceClient } from '../sdk';
import type { TableCommand } from './commands';

type MiddlewareStack = DynamoDBClient['middlewareStack'];

/** The table's client: `send` takes the commands of lib/store/commands.ts; middleware goes on the DynamoDB client's own stack, resolved once (lib/sdk.ts resolveStackOnce). */
export interface TableClient {
  send<Input extends object, Output>(command: TableCommand<Input, Output>): Promise<Output>;
  readonly middlewareStack: MiddlewareStack;
  readonly config: DynamoDBClient['config'];
  destroy(): void;
}

export const db: () => TableClient = clientPerEndpoint('AWS_ENDPOINT_URL_DYNAMODB', (endpoint) => {
  const client = new DynamoDBClient(serviceClientConfig(endpoint));
  trimServiceClient(client);
  resolveStackOnce(client);
  return {
    send: (command) => command.sendWith(client),
    middlewareStack: client.middlewareStack,
    config: client.config,
    destroy: () => client.destroy(),
  };
});

export function tableName(): string {
  return config().TABLE_NAME;
}
