// One DynamoDB document client per process. The endpoint comes from the SDK's standard
// AWS_ENDPOINT_URL(_DYNAMODB) variables, so the same code talks to AWS, LocalStack, moto or dynalite.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { withoutSdkLogging } from '../sdk';

let client: DynamoDBDocumentClient | undefined;

export function db(): DynamoDBDocumentClient {
  if (!client) {
    const raw = new DynamoDBClient({ maxAttempts: 4 });
    withoutSdkLogging(raw);
    client = DynamoDBDocumentClient.from(raw, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
      unmarshallOptions: { wrapNumbers: false },
    });
  }
  return client;
}

export function tableName(): string {
  return config().TABLE_NAME;
}

/** Drops the cached client (the local runtime and tests point the process at another endpoint). */
export function resetDb(): void {
  client?.destroy();
  client = undefined;
}
