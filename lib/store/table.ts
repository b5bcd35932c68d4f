// The single table's shape, shared by the CDK stack and the local runtime so both create the same
// table. Access patterns and the keys that serve them are listed in lib/store/ACCESS-PATTERNS.md.
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const PARTITION_KEY = 'pk';
export const SORT_KEY = 'sk';
export const TTL_ATTRIBUTE = 'expires_at';

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
  /** ALL (default): a Query returns whole items. KEYS_ONLY: the index holds keys only, so a write
   * of the item costs the index nothing unless its keys change (the reader BatchGets the items). */
  projection?: 'ALL' | 'KEYS_ONLY';
}

export const INDEXES: IndexDefinition[] = [
  { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  // List indexes (alerts today: lib/alerts/ACCESS-PATTERNS.md): status + urgency, tiny id order,
  // updated_at order. Keys only: an alert's many writes (routing, every transition) would otherwise
  // copy the whole item into each. Deploy them one per stack update: DynamoDB adds one GSI at a time.
  // gsi5 is also the due index (DUE#<shard>, lib/store/due-index.ts): its reader needs keys only.
  { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk', projection: 'KEYS_ONLY' },
  { name: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk', projection: 'KEYS_ONLY' },
  { name: 'gsi6', partitionKey: 'gsi6pk', sortKey: 'gsi6sk', projection: 'KEYS_ONLY' },
];

export function createTableInput(tableName: string): CreateTableCommandInput {
  const attributes = [PARTITION_KEY, SORT_KEY, ...INDEXES.flatMap((i) => [i.partitionKey, i.sortKey])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [
      { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
      { AttributeName: SORT_KEY, KeyType: 'RANGE' },
    ],
    AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    GlobalSecondaryIndexes: INDEXES.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: index.projection ?? 'ALL' },
    })),
  };
}
