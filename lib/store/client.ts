// One DynamoDB document client per process. The endpoint comes from the SDK's standard
// AWS_ENDPOINT_URL(_DYNAMODB) variables, so the same code talks to AWS, LocalStack, moto or dynalite.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { serviceClientConfig, withoutSdkLogging } from '../sdk';

let client: DynamoDBDocumentClient | undefined;
let clientEndpoint: string | undefined;

export function db(): DynamoDBDocumentClient {
  // The local runtime and the tests may point the process at another emulator between runs.
  const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB ?? process.env.AWS_ENDPOINT_URL;
  if (!client || clientEndpoint !== endpoint) {
    client?.destroy();
    clientEndpoint = endpoint;
    const raw = new DynamoDBClient(serviceClientConfig());
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
