// One DynamoDB client per process, for the endpoint of AWS_ENDPOINT_URL(_DYNAMODB) (lib/sdk.ts
// clientPerEndpoint), sending the table's commands in plain values (lib/store/commands.ts).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '../config';
import { clientPerEndpoint, serviceClientConfig, trimServiceClient } from '../sdk';
import type { TableCommand } from './commands';

type MiddlewareStack = DynamoDBClient['middlewareStack'];

/** The table's client: `send` takes the commands of lib/store/commands.ts; middleware goes on the DynamoDB client's own stack. */
export interface TableClient {
  send<Input extends object, Output>(command: TableCommand<Input, Output>): Promise<Output>;
  readonly middlewareStack: MiddlewareStack;
  readonly config: DynamoDBClient['config'];
  destroy(): void;
}

const CHANGES_STACK = new Set<PropertyKey>(['add', 'addRelativeTo', 'use', 'remove', 'removeByTag']);

/**
 * The client resolves each command's middleware stack once (the SDK's `cacheMiddleware`: the stack
 * was sorted and composed again on every call); a middleware added or removed later (the tests' and
 * benchmarks' meters) forgets what was resolved, so the next call composes the stack as it is then.
 */
function resolvedOnce(client: DynamoDBClient): MiddlewareStack {
  const forget = () => delete (client as unknown as { handlers?: unknown }).handlers;
  return new Proxy(client.middlewareStack, {
    get(stack, name, receiver) {
      const value = Reflect.get(stack, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (!CHANGES_STACK.has(name)) return (value as (...args: unknown[]) => unknown).bind(stack);
      return (...args: unknown[]) => {
        const result = (value as (...args: unknown[]) => unknown).apply(stack, args);
        forget();
        return result;
      };
    },
  });
}

export const db: () => TableClient = clientPerEndpoint('AWS_ENDPOINT_URL_DYNAMODB', () => {
  const client = new DynamoDBClient({ ...serviceClientConfig(), cacheMiddleware: true });
  trimServiceClient(client);
  return {
    send: (command) => command.sendWith(client),
    middlewareStack: resolvedOnce(client),
    config: client.config,
    destroy: () => client.destroy(),
  };
});

export function tableName(): string {
  return config().TABLE_NAME;
}
