// A Lambda function with our defaults set once: Node.js 22 on arm64, minified ESM bundle with
// source maps, a log group with a retention, and `bind`, the one place that grants a function
// exactly the table and queue access its catalogue entry names and passes their names in env.
import { AssetHashType, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { buildFunctionSync } from '../bundling';
import { INDEXES } from '../../lib/store/table';
import { QUEUES, type FunctionDefinition, type QueueName } from '../functions';

/** Everything the data layer does. Scan is deliberately absent: no request path may scan. */
const TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];

export interface ServiceFunctionProps {
  definition: FunctionDefinition;
  projectRoot: string;
  environment?: Record<string, string>;
}

export class ServiceFunction extends Construct {
  readonly fn: LambdaFunction;
  private readonly definition: FunctionDefinition;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.definition = props.definition;
    const logGroup = new LogGroup(this, 'Logs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // A role of its own that may write to its own log group only (no managed policy).
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    role.addToPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
    );
    // Built by esbuild as infra/bundling.ts builds every function, split into index.mjs and the chunks
    // it loads on first use: NodejsFunction writes one --outfile, which cannot split.
    this.fn = new LambdaFunction(this, 'Fn', {
      role,
      code: Code.fromAsset(props.projectRoot, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          image: Runtime.NODEJS_22_X.bundlingImage,
          // CDK caches a bundle by its source folder and these options (the local bundler's code is not
          // part of them): the entry here gives each function a bundle of its own.
          environment: { FUNCTION_ENTRY: props.definition.entry },
          local: {
            tryBundle(outputDir) {
              buildFunctionSync(props.projectRoot, props.definition.entry, outputDir);
              return true;
            },
          },
        },
      }),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.definition.memoryMb,
      timeout: Duration.seconds(props.definition.timeoutSeconds),
      logGroup,
      // No --enable-source-maps: Node would read and parse every loaded file's map at each cold
      // start (45-70 ms); a logged error's stack is read against the maps instead (lib/stack-maps.ts).
      environment: {
        AWS_NODEJS_CONNECTION_REUSE_ENABLED: '1',
        ...props.environment,
      },
    });
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is chosen on purpose: it is the runtime the code is built and tested for (bundle target node22).',
    });
  }

  /** Grants what the catalogue entry names, and nothing else. */
  bind(resources: { table: ITable; queues: Record<QueueName, Queue> }): void {
    const definition = this.definition;
    if (definition.table === 'readWrite') {
      const { tableArn } = resources.table;
      this.fn.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: TABLE_ACTIONS,
          resources: [tableArn, ...INDEXES.map((index) => `${tableArn}/index/${index.name}`)],
        }),
      );
      this.fn.addEnvironment('TABLE_NAME', resources.table.tableName);
    }
    for (const name of definition.sendsTo) {
      resources.queues[name].grantSendMessages(this.fn);
      this.fn.addEnvironment(QUEUES[name].urlVariable, resources.queues[name].queueUrl);
    }
    if (definition.readsQueueDepths) {
      for (const queue of Object.values(QUEUES)) {
        const main = resources.queues[queue.name];
        const dlq = main.deadLetterQueue!.queue;
        main.grant(this.fn, 'sqs:GetQueueAttributes');
        dlq.grant(this.fn, 'sqs:GetQueueAttributes');
        this.fn.addEnvironment(queue.urlVariable, main.queueUrl);
        this.fn.addEnvironment(queue.dlqUrlVariable, dlq.queueUrl);
      }
    }
  }
}
