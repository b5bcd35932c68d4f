// One DynamoDB document client per process, for the endpoint of AWS_ENDPOINT_URL(_DYNAMODB) (lib/sdk.ts clientPerEndpoint).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { clientPerEndpoint, serviceClientConfig, trimServiceClient } from '../sdk';

export const db: () => DynamoDBDocumentClient = clientPerEndpoint('AWS_ENDPOINT_URL_DYNAMODB', () => {
  const raw = new DynamoDBClient(serviceClientConfig());
  trimServiceClient(raw);
  return DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    unmarshallOptions: { wrapNumbers: false },
  });
});

export function tableName(): string {
  return config().TABLE_NAME;
}
