// The whole service as one stack: the single table, the queues with their dead-letter queues, one
// function per resource and per queue worker, the scheduled sweeper and the HTTP API whose routes
// come from the route table, the alarms and dashboard that watch them (infra/constructs/monitoring.ts),
// and the web console (S3 + CloudFront, which also fronts the API under one origin). Stateful resources (table, queues) are retained on stack deletion.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { CfnStage, CorsHttpMethod, HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct, Node } from 'constructs';
import { INDEXES, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE } from '../lib/store/table';
import { DLQ_RETENTION_DAYS, FUNCTIONS, QUEUES, visibilityTimeoutSeconds, type FunctionName, type QueueName } from './functions';
import { Delivery, deliveryFromContext, type DeliveryConfig } from './constructs/delivery';
import { EdgeLimits, edgeLimitsFromContext, type EdgeLimitsConfig } from './constructs/edge-limits';
import { Monitoring } from './constructs/monitoring';
import { SlackIntegration, slackFromContext, type SlackConfig } from './constructs/slack';
import { Voice, voiceFromContext, type VoiceConfig } from './constructs/voice';
import { ServiceFunction } from './constructs/service-function';
import { WebConsole } from './constructs/web-console';
import { contextStrings } from './context';
import { CORS } from './cors';
import { GATEWAY_ROUTES } from '../lib/api/route-table';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface OncallStackProps extends StackProps {
  /** Extra environment for every function (SIGNUP_ENABLED, JWT_TTL_SECONDS, …). */
  functionEnvironment?: Record<string, string>;
  /** A built console to deploy (tests); by default the synth builds web/. */
  consoleAssetsDir?: string;
  /** Where alarms are e-mailed (`cdk deploy -c alarmEmail=ops@example.com`). */
  alarmEmail?: string;
  /** SES, End User Messaging and Web Push (README "Delivering notifications"); default: the
   * `cdk deploy -c …` context of the same names. */
  delivery?: DeliveryConfig;
  /** The Slack app of the deployment ("Add to Slack") and the Web API's address; default: the
   * `cdk deploy -c …` context of the same names (infra/constructs/slack.ts). */
  slack?: SlackConfig;
  /** The canary's team and its account (README "Monitoring"): the sweeper sends it an alert every 15
   * minutes and the stack alarms on its silence; default: `-c canaryTeamId=… -c canaryAccountId=…`. */
  canary?: { teamId: string; accountId: string };
  /** The API stage's throttling and an optional WAF web ACL (infra/constructs/edge-limits.ts); default:
   * the `cdk deploy -c …` context of the same names. */
  edgeLimits?: EdgeLimitsConfig;
  /** Calls you can answer and live call routing (infra/constructs/voice.ts); default: `-c voiceProvider=chime`
   * with `-c voicePhoneNumber=…` or `-c voiceAreaCode=…`. */
  voice?: VoiceConfig;
}

const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);

/** `-c canaryTeamId=… -c canaryAccountId=…`: both, or no canary. */
function canaryFromContext(node: Node): OncallStackProps['canary'] {
  const { canaryTeamId, canaryAccountId } = contextStrings(node, ['canaryTeamId', 'canaryAccountId']);
  if (!canaryTeamId && !canaryAccountId) return undefined;
  if (!canaryTeamId || !canaryAccountId) throw new Error('canaryTeamId and canaryAccountId: give both or neither');
  return { teamId: canaryTeamId, accountId: canaryAccountId };
}

export class OncallStack extends Stack {
  readonly table: Table;
  readonly queues: Record<QueueName, Queue>;
  readonly functions: Record<FunctionName, ServiceFunction>;
  readonly api: HttpApi;
  readonly console: WebConsole;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: OncallStackProps = {}) {
    super(scope, id, props);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: SORT_KEY, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: index.projection === 'KEYS_ONLY' ? ProjectionType.KEYS_ONLY : ProjectionType.ALL,
      });
    }

    this.queues = {} as Record<QueueName, Queue>;
    for (const queue of Object.values(QUEUES)) {
      const dlq = new Queue(this, `${pascal(queue.name)}Dlq`, {
        retentionPeriod: Duration.days(DLQ_RETENTION_DAYS),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        removalPolicy: RemovalPolicy.RETAIN,
      });
      Validations.of(dlq).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason: 'This is a dead-letter queue: messages that exhausted their retries end here for inspection.',
      });
      this.queues[queue.name] = new Queue(this, `${pascal(queue.name)}Queue`, {
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(queue)),
        deadLetterQueue: { queue: dlq, maxReceiveCount: queue.maxReceiveCount },
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        removalPolicy: RemovalPolicy.RETAIN,
      });
    }

    this.functions = {} as Record<FunctionName, ServiceFunction>;
    for (const [name, definition] of Object.entries(FUNCTIONS) as [FunctionName, (typeof FUNCTIONS)[FunctionName]][]) {
      const fn = new ServiceFunction(this, `${pascal(name)}Function`, {
        definition,
        projectRoot: PROJECT_ROOT,
        // Deployed, each channel is sent by its configured provider; one without a provider is
        // recorded failed with the reason (OUTBOX none: the local outbox is for local runs).
        environment: { LOG_LEVEL: 'info', OUTBOX: 'none', ...props.functionEnvironment },
      });
      fn.bind({ table: this.table, queues: this.queues });
      this.functions[name] = fn;
    }

    for (const queue of Object.values(QUEUES)) {
      this.functions[queue.consumer].fn.addEventSource(
        new SqsEventSource(this.queues[queue.name], {
          batchSize: queue.batchSize,
          maxBatchingWindow: queue.maxBatchingWindowSeconds ? Duration.seconds(queue.maxBatchingWindowSeconds) : undefined,
          reportBatchItemFailures: true,
        }),
      );
    }

    for (const [name, definition] of Object.entries(FUNCTIONS) as [FunctionName, (typeof FUNCTIONS)[FunctionName]][]) {
      if (!definition.schedule) continue;
      new Rule(this, `${pascal(name)}Schedule`, {
        schedule: Schedule.expression(definition.schedule),
        targets: [new LambdaFunction(this.functions[name].fn)],
      });
    }

    this.api = new HttpApi(this, 'Api', {
      description: 'On-call service: /api/v4 and the earlier interface',
      corsPreflight: {
        allowOrigins: CORS.allowOrigins,
        allowMethods: CORS.allowMethods.map((m) => m as CorsHttpMethod),
        allowHeaders: CORS.allowHeaders,
        exposeHeaders: CORS.exposeHeaders,
        maxAge: Duration.seconds(CORS.maxAgeSeconds),
      },
      defaultIntegration: new HttpLambdaIntegration('NotFoundIntegration', this.functions.notFound.fn),
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authorization happens in the functions (docs/api.md#authentication: login JWTs, API key tokens, x-api-key + x-api-secret, all checked against the table); login, signup, health and inbound webhooks are public by design.',
    });
    // One invoke permission per function for this API, not one per route: a permission per route
    // (143 of them) pushed the stack past CloudFormation's 500 resources. Only the routes of the
    // table integrate with a function, so the wider source ARN reaches nothing more.
    const integrations = new Map<string, HttpLambdaIntegration>();
    // One route per function and path (GATEWAY_ROUTES: its methods merged into ANY), not one per
    // operation: 184 routes left 31 resources of CloudFormation's 500.
    for (const route of GATEWAY_ROUTES) {
      let integration = integrations.get(route.fn);
      if (!integration) {
        // One invoke permission per function for the whole API instead of one per route: a route
        // table of 140+ routes would otherwise spend as many resources on permissions and push the
        // stack past CloudFormation's 500. Nothing is lost: each function answers its own route
        // keys only (lib/api/handler.ts), and only this API may invoke it.
        integration = new HttpLambdaIntegration(`${pascal(route.fn)}Integration`, this.functions[route.fn].fn, {
          scopePermissionToRoute: false,
        });
        integrations.set(route.fn, integration);
      }
      this.api.addRoutes({ path: route.path, methods: [route.method as HttpMethod], integration });
    }

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const stage = this.api.defaultStage!.node.defaultChild as CfnStage;
    stage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        requestTime: '$context.requestTime',
        routeKey: '$context.routeKey',
        status: '$context.status',
        latency: '$context.responseLatency',
        integrationError: '$context.integrationErrorMessage',
      }),
    };

    new Delivery(this, 'Delivery', {
      config: props.delivery ?? deliveryFromContext(this.node),
      functions: this.functions,
      notifying: (Object.keys(FUNCTIONS) as FunctionName[]).filter((name) => FUNCTIONS[name].notifies),
      api: this.api,
    });

    new SlackIntegration(this, 'Slack', {
      config: props.slack ?? slackFromContext(this.node),
      functions: this.functions,
      slackFunctions: (Object.keys(FUNCTIONS) as FunctionName[]).filter((name) => FUNCTIONS[name].slack),
      sealingFunctions: (Object.keys(FUNCTIONS) as FunctionName[]).filter((name) => FUNCTIONS[name].opensSealedSecrets),
    });

    new Voice(this, 'Voice', {
      config: props.voice ?? voiceFromContext(this.node),
      projectRoot: PROJECT_ROOT,
      table: this.table,
      queues: this.queues,
      functions: this.functions,
      notifying: (Object.keys(FUNCTIONS) as FunctionName[]).filter((name) => FUNCTIONS[name].notifies),
      environment: { LOG_LEVEL: 'info', OUTBOX: 'none', ...props.functionEnvironment },
    });

    const canary = props.canary ?? canaryFromContext(this.node);
    if (canary) {
      this.functions.sweeper.fn.addEnvironment('CANARY_TEAM_ID', canary.teamId);
      this.functions.sweeper.fn.addEnvironment('CANARY_ACCOUNT_ID', canary.accountId);
    }

    this.monitoring = new Monitoring(this, 'Monitoring', {
      queues: this.queues,
      functions: this.functions,
      api: this.api,
      alarmEmail: props.alarmEmail,
      canary: canary !== undefined,
    });

    this.console = new WebConsole(this, 'Console', { api: this.api, assetsDir: props.consoleAssetsDir });
    new EdgeLimits(this, 'EdgeLimits', {
      config: props.edgeLimits ?? edgeLimitsFromContext(this.node),
      stage,
      distribution: this.console.distribution,
    });
    // Links e-mailed to people (password reset, one-click responses to pages) open the console's
    // address, which serves the API too, unless the deployment names another (a custom domain).
    if (!props.functionEnvironment?.CONSOLE_URL) {
      for (const fn of Object.values(this.functions)) fn.fn.addEnvironment('CONSOLE_URL', this.console.url);
    }

    new CfnOutput(this, 'ConsoleUrl', {
      value: this.console.url,
      description: 'The web console; the API answers under the same URL too',
    });
    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.monitoring.topic.topicArn,
      description: 'Every alarm of the service is sent here (subscribe, or deploy with -c alarmEmail=…)',
    });
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName });
    for (const queue of Object.values(QUEUES)) {
      new CfnOutput(this, `${pascal(queue.name)}QueueUrl`, { value: this.queues[queue.name].queueUrl });
    }
  }
}
