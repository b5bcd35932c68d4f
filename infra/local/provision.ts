// Creates the table and the queues (each with its dead-letter queue) from the same definitions the
// CDK stack uses, when they do not exist yet: on the embedded emulators, LocalStack or moto alike.
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createTableInput, TTL_ATTRIBUTE } from '../../lib/store/table';
import { DLQ_RETENTION_DAYS, QUEUES, visibilityTimeoutSeconds, type QueueName } from '../functions';

/** Creates the table unless it exists; true when this call created it (it holds nothing yet). */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return false;
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
  }
  let created = true;
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceInUseException') throw error;
    created = false;
  }
  for (let attempt = 0; attempt < 100; attempt++) {
    const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const ready =
      out.Table?.TableStatus === 'ACTIVE' &&
      (out.Table.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE' || !index.IndexStatus);
    if (ready) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    );
  } catch {
    // dynalite has no TTL; expiry is only housekeeping, nothing depends on it.
  }
  return created;
}

export type QueueUrls = Record<QueueName, { url: string; dlqUrl: string }>;

/** `visibilityOverride` shortens the visibility timeout (tests that watch redelivery and redrive). */
export async function ensureQueues(client: SQSClient, prefix: string, visibilityOverride?: number): Promise<QueueUrls> {
  const urls = {} as QueueUrls;
  for (const queue of Object.values(QUEUES)) {
    const dlq = await client.send(
      new CreateQueueCommand({
        QueueName: `${prefix}-${queue.name}-dlq`,
        Attributes: { MessageRetentionPeriod: String(DLQ_RETENTION_DAYS * 86400) },
      }),
    );
    const dlqAttributes = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
    const main = await client.send(
      new CreateQueueCommand({
        QueueName: `${prefix}-${queue.name}`,
        Attributes: {
          VisibilityTimeout: String(visibilityOverride ?? visibilityTimeoutSeconds(queue)),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: dlqAttributes.Attributes!.QueueArn,
            maxReceiveCount: queue.maxReceiveCount,
          }),
        },
      }),
    );
    urls[queue.name] = { url: main.QueueUrl!, dlqUrl: dlq.QueueUrl! };
  }
  return urls;
}
