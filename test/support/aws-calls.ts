// The service's own AWS clients (lib/store/client.ts db(), lib/queues/client.ts sqs()) as the tests
// reach into them: a middleware on each client's stack, inside the retry middleware, sees every
// attempt of every call with the command's name and input. aws-faults.ts fails chosen calls there;
// aws-gates.ts holds them until the test lets them go.
import { db } from '../../lib/store/client';
import { sqs } from '../../lib/queues/client';

export interface AwsCall {
  service: 'dynamodb' | 'sqs';
  /** The command (UpdateItem, PutItem, SendMessageBatch, …). */
  operation: string;
  /** The command's input as it goes to AWS: attribute values marshalled (`{ pk: { S: 'A#…' } }`). */
  input: Record<string, unknown>;
}

/** The key of the one item a GetItem, PutItem, UpdateItem or DeleteItem reads or writes, else null. */
export function itemKeyOf(call: AwsCall): { pk: string; sk: string } | null {
  const source = (call.input.Key ?? call.input.Item) as Record<string, { S?: string }> | undefined;
  const pk = source?.pk?.S;
  const sk = source?.sk?.S;
  return pk !== undefined && sk !== undefined ? { pk, sk } : null;
}

export type Handler = (args: { input: Record<string, unknown> }) => Promise<unknown>;
export type Middleware = (next: Handler, context: { commandName?: string }) => Handler;
interface Stack {
  add(middleware: Middleware, options: { step: string; name: string; priority: string; override: boolean }): void;
  remove(name: string): boolean;
}

/** The call an attempt makes, as the middlewares see it. */
export const callOf = (service: AwsCall['service'], context: { commandName?: string }, input: Record<string, unknown>): AwsCall => ({
  service,
  operation: (context.commandName ?? '').replace(/Command$/, ''),
  input,
});

/**
 * Adds a middleware (made per client) to both of the service's clients (create them first:
 * startService); returns its removal.
 */
export function onServiceClients(name: string, middlewareFor: (service: AwsCall['service']) => Middleware): () => void {
  const stacks: Array<[Stack, AwsCall['service']]> = [
    [db().middlewareStack as unknown as Stack, 'dynamodb'],
    [sqs().middlewareStack as unknown as Stack, 'sqs'],
  ];
  // finalizeRequest, low priority: after the retry middleware, so every attempt passes through here.
  for (const [stack, service] of stacks)
    stack.add(middlewareFor(service), { step: 'finalizeRequest', name, priority: 'low', override: true });
  return () => {
    for (const [stack] of stacks) stack.remove(name);
  };
}

/** Every DynamoDB call (each attempt) the service's client makes while `run` runs, in order, and what `run` returned. */
export async function dynamoCallsDuring<T>(run: () => Promise<T>): Promise<{ result: T; calls: AwsCall[] }> {
  const calls: AwsCall[] = [];
  const stop = onServiceClients('dynamoCallsDuring', (service) => (next, context) => async (args) => {
    if (service === 'dynamodb') calls.push(callOf(service, context, args.input));
    return next(args);
  });
  try {
    return { result: await run(), calls };
  } finally {
    stop();
  }
}
