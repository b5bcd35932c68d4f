import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS, QUEUES } from '../../infra/functions';
import { API_PATH_PATTERNS, CONTENT_SECURITY_POLICY } from '../../infra/console';
import { addNagChecks } from '../../infra/checks';
import { ROUTES } from '../../lib/api/route-table';
import { OncallStack } from '../../infra/stack';

// Bundling is skipped here (the CI synth bundles for real); the template is the same otherwise.
const context = { 'aws:cdk:bundling-stacks': [] };
const outdirs: string[] = [];
const outdir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cdk-test-'));
  outdirs.push(dir);
  return dir;
};
afterAll(() => outdirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The project's files a function's bundle takes in (its packages left out), each entry built once. */
const bundles = new Map<string, Promise<string[]>>();
function bundleInputsOf(entry: string): Promise<string[]> {
  let inputs = bundles.get(entry);
  if (!inputs) {
    inputs = import('esbuild').then(async ({ build }) => {
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        metafile: true,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        logLevel: 'silent',
      });
      return Object.keys(result.metafile.inputs);
    });
    bundles.set(entry, inputs);
  }
  return inputs;
}

// What the stack must hold, written out here rather than derived from the catalogue it is built from
// (infra/functions.ts, lib/queues/definitions.ts, lib/store/table.ts): a change there that changes
// the stack has to change these lines too.

/** Each queue (its logical id starts with the name) with its consumer, visibility timeout and receives before the DLQ. */
const EXPECTED_QUEUES = [
  { name: 'Ingest', consumer: 'IngestWorker', visibilityTimeout: 180, maxReceiveCount: 4 },
  { name: 'Routing', consumer: 'RoutingWorker', visibilityTimeout: 180, maxReceiveCount: 4 },
  { name: 'Webhooks', consumer: 'WebhookWorker', visibilityTimeout: 180, maxReceiveCount: 4 },
  { name: 'Escalation', consumer: 'EscalationWorker', visibilityTimeout: 180, maxReceiveCount: 5 },
] as const;
/** 14 days. */
const DLQ_RETENTION_SECONDS = 1_209_600;

/** The queues each function may send to; every function not named here sends to none. */
const EXPECTED_SENDS: Record<string, string[]> = {
  Alerts: ['Escalation', 'Routing', 'Webhooks'],
  Broadcasts: ['Escalation'],
  Respond: ['Escalation', 'Webhooks'],
  SmsInbound: ['Escalation', 'Webhooks'],
  DeliveryReceipts: ['Escalation'],
  Slack: ['Escalation', 'Routing', 'Webhooks'],
  // a heartbeat's beat resolves the alert of its miss
  Inbound: ['Escalation', 'Ingest', 'Webhooks'],
  Integrations: ['Escalation', 'Webhooks'],
  IngestWorker: ['Routing', 'Webhooks'],
  RoutingWorker: ['Escalation', 'Routing', 'Webhooks'],
  EscalationWorker: ['Escalation', 'Webhooks'],
  WebhookWorker: ['Webhooks'],
  Sweeper: ['Escalation', 'Ingest', 'Routing', 'Webhooks'],
};

/** The table's indexes: three carrying every attribute, three only the keys. */
const EXPECTED_INDEXES = [
  { name: 'gsi1', projection: 'ALL' },
  { name: 'gsi2', projection: 'ALL' },
  { name: 'gsi3', projection: 'ALL' },
  { name: 'gsi4', projection: 'KEYS_ONLY' },
  { name: 'gsi5', projection: 'KEYS_ONLY' },
  { name: 'gsi6', projection: 'KEYS_ONLY' },
];

/** The function (by its name in the catalogue, PascalCase) a logical id belongs to. */
const functionOf = (logicalId: string) => /^([A-Za-z]+?)Function/.exec(logicalId)?.[1];
/** The queue a reference (`{ 'Fn::GetAtt': [id, 'Arn'] }`) names: its name in EXPECTED_QUEUES and Queue or Dlq. */
const queueOf = (reference: unknown) => {
  const id = (reference as { 'Fn::GetAtt'?: [string, string] } | null)?.['Fn::GetAtt']?.[0] ?? '';
  return /^([A-Z][a-z]+)(Queue|Dlq)/.exec(id)?.slice(1).join(' ') ?? '';
};

let template: Template;
beforeAll(() => {
  const app = new App({ context, outdir: outdir() });
  template = Template.fromStack(new OncallStack(app, 'Test'));
});

describe('the stack', () => {
  it('has one on-demand table with PITR, a TTL attribute and the store’s indexes', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
        GlobalSecondaryIndexes: EXPECTED_INDEXES.map((index) =>
          Match.objectLike({
            IndexName: index.name,
            KeySchema: [
              { AttributeName: `${index.name}pk`, KeyType: 'HASH' },
              { AttributeName: `${index.name}sk`, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: index.projection },
          }),
        ),
      }),
    });
  });

  it('gives every queue an encrypted dead-letter queue, its receives and a visibility of at least 6× its consumer’s timeout', () => {
    const queues = Object.entries(template.findResources('AWS::SQS::Queue')) as [string, any][];
    const functions = Object.entries(template.findResources('AWS::Lambda::Function')) as [string, any][];
    expect(queues).toHaveLength(2 * EXPECTED_QUEUES.length);
    for (const expected of EXPECTED_QUEUES) {
      const [, queue] = queues.find(([id]) => id.startsWith(`${expected.name}Queue`))!;
      const [dlqId, dlq] = queues.find(([id]) => id.startsWith(`${expected.name}Dlq`))!;
      expect(queue.Properties, expected.name).toEqual({
        SqsManagedSseEnabled: true,
        VisibilityTimeout: expected.visibilityTimeout,
        RedrivePolicy: { maxReceiveCount: expected.maxReceiveCount, deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] } },
      });
      expect(dlq.Properties, expected.name).toEqual({ MessageRetentionPeriod: DLQ_RETENTION_SECONDS, SqsManagedSseEnabled: true });
      const [, consumer] = functions.find(([id]) => functionOf(id) === expected.consumer)!;
      expect(expected.visibilityTimeout).toBeGreaterThanOrEqual(6 * consumer.Properties.Timeout);
    }
  });

  it('deploys one nodejs22.x arm64 function per catalogue entry', () => {
    const all = Object.values(template.findResources('AWS::Lambda::Function')) as any[];
    // Besides ours, only CDK's BucketDeployment copier of the console (Python, CDK's choice).
    const copier = all.filter((fn) => String(fn.Properties.Runtime).startsWith('python'));
    expect(copier).toHaveLength(1);
    const functions = all.filter((fn) => !copier.includes(fn));
    expect(functions).toHaveLength(Object.keys(FUNCTIONS).length);
    for (const fn of functions) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.Handler).toBe('index.handler');
      // Node would read and parse every loaded file's source map at each cold start; a logged
      // error's stack is read against the maps instead (lib/stack-maps.ts).
      expect(String(fn.Properties.Environment.Variables.NODE_OPTIONS ?? '')).not.toContain('source-maps');
    }
  });

  it('feeds each worker from its queue, ten at a time, with partial batch failures', () => {
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as any[];
    const fed = mappings.map((m) => {
      expect(m.Properties).toMatchObject({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] });
      return `${queueOf(m.Properties.EventSourceArn)} → ${functionOf(m.Properties.FunctionName.Ref)}`;
    });
    expect(fed.sort()).toEqual(EXPECTED_QUEUES.map((q) => `${q.name} Queue → ${q.consumer}`).sort());
  });

  it('creates one API route per function and path of the route table (ANY for several methods), and a $default catch-all', () => {
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
    const served = new Map<string, string>();
    for (const route of Object.values(template.findResources('AWS::ApiGatewayV2::Route')) as any[]) {
      const integration = integrations[route.Properties.Target['Fn::Join'][1][1].Ref];
      served.set(route.Properties.RouteKey, functionOf(integration.Properties.IntegrationUri['Fn::GetAtt'][0])!);
    }
    expect(served.get('$default')).toBe('NotFound');
    // no (path, function) pair lost, and no more routes than pairs
    const pairs = new Set(ROUTES.map((route) => `${route.path} ${route.fn}`));
    expect(served.size).toBe(pairs.size + 1);
    const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);
    for (const route of ROUTES) {
      // a declared operation is reached by its method's route, else by its path's ANY route (which
      // takes the methods no route of the path names), and that route invokes its function
      const own = served.get(`${route.method} ${route.path}`) ?? served.get(`ANY ${route.path}`);
      expect(own, `${route.method} ${route.path}`).toBe(pascal(route.fn));
    }
    expect([...served.keys()].filter((key) => key.startsWith('ANY ')).length).toBeGreaterThan(40);
    // CloudFormation refuses a stack of more than 500 resources
    expect(Object.keys(template.toJSON().Resources as object).length).toBeLessThan(500);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['*'] }),
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
  });

  it('lets each function send only to the queues it needs (escalation timers among them), statement by statement', () => {
    const sends = new Map<string, Set<string>>();
    for (const [id, policy] of Object.entries(template.findResources('AWS::IAM::Policy')) as [string, any][]) {
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        if (![statement.Action].flat().includes('sqs:SendMessage')) continue;
        const name = functionOf(id)!;
        for (const resource of [statement.Resource].flat()) {
          const [queue, kind] = queueOf(resource).split(' ');
          expect(kind, `${name} sends to ${JSON.stringify(resource)}`).toBe('Queue');
          sends.set(name, (sends.get(name) ?? new Set()).add(queue));
        }
      }
    }
    expect(Object.fromEntries([...sends].map(([name, queues]) => [name, [...queues].sort()]))).toEqual(EXPECTED_SENDS);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ ESCALATION_QUEUE_URL: Match.anyValue(), OUTBOX: 'none' }) },
    });
  });

  it('runs the sweeper every minute', () => {
    const rules = Object.values(template.findResources('AWS::Events::Rule')) as any[];
    expect(rules.map((rule) => [rule.Properties.ScheduleExpression, functionOf(rule.Properties.Targets[0].Arn['Fn::GetAtt'][0])])).toEqual([
      ['rate(1 minute)', 'Sweeper'],
    ]);
  });

  it('grants table access without Scan, without wildcards, and none to the catch-all', () => {
    const policies = Object.entries(template.findResources('AWS::IAM::Policy'));
    const text = JSON.stringify(policies);
    expect(text).not.toContain('dynamodb:Scan');
    expect(text).not.toContain('dynamodb:*');
    expect(text).not.toMatch(/index\/\*/);
    const notFound = policies.filter(([id]) => id.startsWith('NotFoundFunction'));
    expect(JSON.stringify(notFound)).not.toContain('dynamodb:');
    template.resourcePropertiesCountIs('AWS::IAM::Role', { ManagedPolicyArns: Match.anyValue() }, 0);
  });
});

describe('the web console', () => {
  const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
  const ALL_VIEWER_EXCEPT_HOST = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

  it('keeps the built console in one private, encrypted, SSL-only bucket', () => {
    template.resourceCountIs('AWS::S3::Bucket', 1);
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      }),
    });
    const policy = JSON.stringify(template.findResources('AWS::S3::BucketPolicy'));
    expect(policy).toContain('aws:SecureTransport');
    expect(policy).toContain('cloudfront.amazonaws.com');
    expect(policy).toContain('AWS:SourceArn');
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      }),
    });
  });

  it('serves the page from S3 with the CSP and sends every API path to API Gateway, uncached, with all headers but Host', () => {
    template.resourceCountIs('AWS::CloudFront::Distribution', 1);
    const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution')) as any[];
    const config = distribution.Properties.DistributionConfig;
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toBeUndefined(); // the API's own 4xx bodies pass through
    const s3 = config.Origins.find((o: any) => o.S3OriginConfig);
    const api = config.Origins.find((o: any) => o.CustomOriginConfig);
    expect(s3.OriginAccessControlId).toBeDefined();
    expect(api.CustomOriginConfig).toMatchObject({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
      OriginKeepaliveTimeout: 60,
    });
    expect(JSON.stringify(api.DomainName)).toContain('ApiF70053CD');

    expect(config.DefaultCacheBehavior).toMatchObject({
      TargetOriginId: s3.Id,
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: ['GET', 'HEAD'],
    });
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toBeDefined();

    const behaviors = config.CacheBehaviors as any[];
    expect(behaviors.map((b) => b.PathPattern)).toEqual([...API_PATH_PATTERNS]);
    for (const behavior of behaviors) {
      expect(behavior).toMatchObject({
        TargetOriginId: api.Id,
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST,
      });
      expect(behavior.ResponseHeadersPolicyId).toBeUndefined();
    }
    for (const route of ROUTES) {
      const concrete = route.path.replace(/\{[^}]+\}/g, 'x');
      expect(
        API_PATH_PATTERNS.some((p) => new RegExp(`^${p.replace(/\*/g, '.*')}$`).test(concrete)),
        concrete,
      ).toBe(true);
    }
  });

  it('sets the strict CSP and the other security headers on the console', () => {
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: { ContentSecurityPolicy: CONTENT_SECURITY_POLICY, Override: true },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
        }),
      }),
    });
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  it('deploys the assets as immutable and the page as no-cache, invalidating the page', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')) as any[];
    expect(deployments).toHaveLength(2);
    const assets = deployments.find((d) => JSON.stringify(d.Properties.Include) === '["assets/*"]');
    const page = deployments.find((d) => JSON.stringify(d.Properties.Include) === '["index.html"]');
    expect(assets.Properties.SystemMetadata['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(assets.Properties.Prune).toBe(false);
    expect(page.Properties.SystemMetadata['cache-control']).toBe('no-cache');
    expect(page.Properties.DistributionPaths).toEqual(['/', '/index.html']);
  });

  it('outputs the console URL', () => {
    template.hasOutput('ConsoleUrl', {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [Match.stringLikeRegexp('^ConsoleDistribution'), 'DomainName'] }]] },
    });
  });

  it("gives every function the console URL, the base of the links it sends people (password reset, pages' one-click responses)", () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter((fn: any) =>
      String(fn.Properties.Runtime).startsWith('nodejs'),
    ) as any[];
    expect(functions.length).toBe(Object.keys(FUNCTIONS).length);
    for (const fn of functions) {
      expect(JSON.stringify(fn.Properties.Environment.Variables.CONSOLE_URL)).toMatch(/ConsoleDistribution.*DomainName/);
    }
  });
});

describe('who watches the pager', () => {
  const alarms = () => Object.values(template.findResources('AWS::CloudWatch::Alarm')) as any[];
  const topic = () => Object.keys(template.findResources('AWS::SNS::Topic'))[0];
  const byMetric = (namespace: string, metricName: string) =>
    alarms().filter((a) => a.Properties.Namespace === namespace && a.Properties.MetricName === metricName);
  const alarmNamed = (prefix: string, from = template) => {
    const found = Object.entries(from.findResources('AWS::CloudWatch::Alarm')).filter(([id]) => id.startsWith(prefix));
    expect(found.map(([id]) => id)).toHaveLength(1);
    return found[0][1] as any;
  };
  /** The metric of a metric-math alarm's expression, by its id in the expression. */
  const statOf = (alarm: any, id: string) => alarm.Properties.Metrics.find((m: any) => m.Id === id).MetricStat;

  it('alarms on the p99 of time to page and of timer lateness over 60 s, from the service’s own EMF metrics', () => {
    for (const [id, metricName] of [
      ['MonitoringTimeToPageP99', 'TimeToPage'],
      ['MonitoringTimerLatenessP99', 'TimerLateness'],
    ]) {
      expect(alarmNamed(id).Properties).toMatchObject({
        Namespace: 'Oncall',
        MetricName: metricName,
        Dimensions: [{ Name: 'service', Value: 'oncall' }],
        ExtendedStatistic: 'p99',
        Period: 300,
        Threshold: 60_000,
        ComparisonOperator: 'GreaterThanThreshold',
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it('alarms on each provider failing more than 10 % of its deliveries (metric math over 15 minutes)', () => {
    for (const [id, provider] of [
      ['MonitoringSesFailureRate', 'ses'],
      ['MonitoringSmsVoiceV2FailureRate', 'sms-voice-v2'],
      ['MonitoringWebPushFailureRate', 'web-push'],
      ['MonitoringSlackFailureRate', 'slack'],
    ]) {
      const alarm = alarmNamed(id);
      expect(alarm.Properties).toMatchObject({ Threshold: 10, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1 });
      const expression = alarm.Properties.Metrics.find((m: any) => m.Expression);
      const key = provider.replace(/-/g, '_');
      expect(expression.Expression).toBe(`IF(deliveries_${key} >= 5, 100 * FILL(failures_${key}, 0) / deliveries_${key}, 0)`);
      for (const [metricId, metricName] of [
        [`deliveries_${key}`, 'Deliveries'],
        [`failures_${key}`, 'DeliveryFailures'],
      ]) {
        const { Metric, ...stat } = statOf(alarm, metricId);
        expect(stat).toEqual({ Period: 900, Stat: 'Sum' });
        expect(Metric.Namespace).toBe('Oncall');
        expect(Metric.MetricName).toBe(metricName);
        expect(Object.fromEntries(Metric.Dimensions.map((d: any) => [d.Name, d.Value]))).toEqual({ service: 'oncall', provider });
      }
    }
  });

  it('alarms on the canary’s silence only when a canary team is given, missing data breaching', () => {
    expect(Object.keys(template.findResources('AWS::CloudWatch::Alarm')).filter((id) => id.includes('Canary'))).toEqual([]);
    const app = new App({
      context: { ...context, canaryTeamId: '01JCANARYTEAM0000000000000', canaryAccountId: '01JCANARYACC00000000000000' },
      outdir: outdir(),
    });
    const withCanary = Template.fromStack(new OncallStack(app, 'WithCanary'));
    expect(alarmNamed('MonitoringCanarySilent', withCanary).Properties).toMatchObject({
      Namespace: 'Oncall',
      MetricName: 'CanarySucceeded',
      Statistic: 'Sum',
      Period: 1800,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
    });
    const sweeper = Object.entries(withCanary.findResources('AWS::Lambda::Function')).find(
      ([id]) => functionOf(id) === 'Sweeper',
    )![1] as any;
    expect(sweeper.Properties.Environment.Variables).toMatchObject({
      CANARY_TEAM_ID: '01JCANARYTEAM0000000000000',
      CANARY_ACCOUNT_ID: '01JCANARYACC00000000000000',
    });
    const others = Object.entries(withCanary.findResources('AWS::Lambda::Function')).filter(
      ([id]) => functionOf(id) && functionOf(id) !== 'Sweeper',
    );
    for (const [, fn] of others as [string, any][]) expect(fn.Properties.Environment?.Variables?.CANARY_TEAM_ID).toBeUndefined();
    expect(
      () => new OncallStack(new App({ context: { ...context, canaryTeamId: '01JCANARYTEAM0000000000000' }, outdir: outdir() }), 'Half'),
    ).toThrow(/canaryTeamId and canaryAccountId/);
  });

  it('has one alarm per dead-letter queue, per queue age, per function error, the throttles of every ten functions, the API 5xx rate, and the paging alarms', () => {
    const functions = Object.keys(template.findResources('AWS::Lambda::Function')).filter(functionOf);
    expect(functions.length).toBeGreaterThan(20);
    // Paging: time to page, timer lateness, and one failure rate per provider (ses, sms-voice-v2, web-push, slack); no canary here.
    expect(alarms()).toHaveLength(4 + 4 + functions.length + Math.ceil(functions.length / 10) + 1 + 2 + 4);
    expect(
      byMetric('AWS/SQS', 'ApproximateNumberOfMessagesVisible')
        .map((a) => queueOf(a.Properties.Dimensions[0].Value))
        .sort(),
    ).toEqual(['Escalation Dlq', 'Ingest Dlq', 'Routing Dlq', 'Webhooks Dlq']);
    expect(
      byMetric('AWS/SQS', 'ApproximateAgeOfOldestMessage')
        .map((a) => queueOf(a.Properties.Dimensions[0].Value))
        .sort(),
    ).toEqual(['Escalation Queue', 'Ingest Queue', 'Routing Queue', 'Webhooks Queue']);
    const errorsWatched = byMetric('AWS/Lambda', 'Errors').map((a) => a.Properties.Dimensions[0].Value.Ref);
    expect(errorsWatched.sort()).toEqual(functions.sort());
    // Every function's throttles, each in exactly one of the grouped alarms, summed with gaps as 0.
    const throttleAlarms = alarms().filter((a) => a.Properties.Metrics?.some((m: any) => m.MetricStat?.Metric.MetricName === 'Throttles'));
    expect(throttleAlarms).toHaveLength(Math.ceil(functions.length / 10));
    const throttlesWatched = throttleAlarms.flatMap((a) =>
      a.Properties.Metrics.filter((m: any) => m.MetricStat).map((m: any) => m.MetricStat.Metric.Dimensions[0].Value.Ref),
    );
    expect(throttlesWatched.sort()).toEqual(functions.sort());
    for (const a of throttleAlarms) {
      const stats = a.Properties.Metrics.filter((m: any) => m.MetricStat);
      expect(stats.length).toBeLessThanOrEqual(10);
      expect(a.Properties.Metrics.find((m: any) => m.Expression).Expression).toBe(stats.map((m: any) => `FILL(${m.Id}, 0)`).join(' + '));
      expect(a.Properties).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      for (const m of stats) expect(m.MetricStat).toMatchObject({ Stat: 'Sum', Period: 300 });
    }
  });

  it('alarms on any dead letter, a message older than 5 minutes, any error or throttle, and 5 % of 5xx', () => {
    for (const alarm of byMetric('AWS/SQS', 'ApproximateNumberOfMessagesVisible')) {
      expect(alarm.Properties).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        Statistic: 'Maximum',
        Period: 60,
      });
    }
    for (const alarm of byMetric('AWS/SQS', 'ApproximateAgeOfOldestMessage')) {
      expect(alarm.Properties).toMatchObject({ Threshold: 300, ComparisonOperator: 'GreaterThanOrEqualToThreshold', Period: 60 });
    }
    for (const alarm of byMetric('AWS/Lambda', 'Errors')) {
      expect(alarm.Properties).toMatchObject({ Threshold: 1, Statistic: 'Sum', Period: 300, TreatMissingData: 'notBreaching' });
    }
    const rate = alarmNamed('MonitoringApi5xxRate');
    expect(rate.Properties.Threshold).toBe(5);
    const expression = rate.Properties.Metrics.find((m: any) => m.Expression).Expression;
    expect(expression).toBe('IF(requests >= 20, 100 * errors / requests, 0)');
    expect(
      rate.Properties.Metrics.map((m: any) => m.MetricStat?.Metric.MetricName)
        .filter(Boolean)
        .sort(),
    ).toEqual(['5xx', 'Count']);
  });

  it('sends every alarm, and its recovery, to the stack’s encrypted SSL-only topic', () => {
    for (const alarm of alarms()) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic() }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topic() }]);
    }
    template.resourceCountIs('AWS::SNS::Topic', 1);
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      }),
    });
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    // No e-mail unless the deployment names one.
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    template.hasOutput('AlarmTopicArn', { Value: { Ref: topic() } });
  });

  it('subscribes the address given with -c alarmEmail', () => {
    const app = new App({ context, outdir: outdir() });
    const withEmail = Template.fromStack(new OncallStack(app, 'WithEmail', { alarmEmail: 'oncall-ops@example.com' }));
    withEmail.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall-ops@example.com' });
  });

  it('draws a dashboard of the same: the alarms, paging, the API, every queue and every function', () => {
    const dashboards = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as any[];
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0].Properties.DashboardBody);
    for (const queue of Object.values(QUEUES)) expect(body).toContain(`${queue.name} queue`);
    for (const name of Object.keys(FUNCTIONS)) expect(body).toContain(`${name} function`);
    expect(body).toContain('alarm');
    for (const title of ['Time to page', 'Pages per channel and provider failures', 'Escalation timers']) expect(body).toContain(title);
    for (const metric of ['TimeToPage', 'PagesSent', 'Deliveries', 'DeliveryFailures', 'TimerLateness', 'WebhookToAlert'])
      expect(body).toContain(metric);
  });

  it('lets the health function read every queue’s and dead-letter queue’s depth, and nothing more of them', () => {
    const policies = Object.entries(template.findResources('AWS::IAM::Policy')) as [string, any][];
    const [, health] = policies.find(([id]) => id.startsWith('PublicFunction'))!;
    const sqs = health.Properties.PolicyDocument.Statement.filter((s: any) => JSON.stringify(s.Action).includes('sqs:'));
    expect(sqs.map((s: any) => s.Action)).toEqual(Array(8).fill('sqs:GetQueueAttributes'));
    expect(sqs.map((s: any) => queueOf(s.Resource)).sort()).toEqual(
      ['Escalation', 'Ingest', 'Routing', 'Webhooks'].flatMap((name) => [`${name} Dlq`, `${name} Queue`]),
    );
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike(Object.fromEntries(Object.values(QUEUES).map((q) => [q.dlqUrlVariable, Match.anyValue()]))),
      },
    });
  });
});

describe('cdk-nag', () => {
  it('finds nothing unacknowledged in the stack', () => {
    const app = new App({ context, outdir: outdir() });
    new OncallStack(app, 'Nag');
    addNagChecks(app);
    const assembly = app.synth();
    const report = JSON.parse(readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8'));
    expect(report.pluginReports).toEqual([]);
  });

  it('fails the synth on a finding nobody acknowledged', () => {
    const app = new App({ context, outdir: outdir() });
    new Queue(new Stack(app, 'Bad'), 'QueueWithoutDlq');
    addNagChecks(app);
    expect(() => app.synth()).toThrow(/dead-letter queue/);
  });
});

describe('delivery providers (SES, End User Messaging, Web Push, inbound SMS)', () => {
  const delivery = {
    sesFromAddress: 'On-call <oncall@example.com>',
    sesIdentityArn: 'arn:aws:ses:eu-west-1:123456789012:identity/example.com',
    sesConfigurationSet: 'oncall-pages',
    smsOriginationIdentityArn: 'arn:aws:sms-voice:eu-west-1:123456789012:phone-number/phone-0123456789abcdef',
    voiceOriginationIdentityArn: 'arn:aws:sms-voice:eu-west-1:123456789012:phone-number/phone-fedcba9876543210',
    smsConfigurationSet: 'oncall-sms',
    smsInboundTopicArn: 'arn:aws:sns:eu-west-1:123456789012:oncall-inbound-sms',
    webPushSubject: 'mailto:ops@example.com',
  };
  const env = { account: '123456789012', region: 'eu-west-1' };
  let configured: Template;
  beforeAll(() => {
    const app = new App({ context, outdir: outdir() });
    configured = Template.fromStack(new OncallStack(app, 'Delivering', { env, delivery }));
  });

  /** Every statement of the function's role policy, by function name in the catalogue. */
  function statementsOf(tpl: Template, name: string): { Action: string | string[]; Resource: unknown }[] {
    const roles = tpl.findResources('AWS::IAM::Role');
    const role = Object.keys(roles).find((id) => id.startsWith(`${name[0].toUpperCase()}${name.slice(1)}Function`));
    const policies = tpl.findResources('AWS::IAM::Policy');
    return Object.values(policies)
      .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
  }
  /** An ARN the template builds with the partition (`Fn::Join` of `arn:`, `AWS::Partition`, …) as text. */
  const arnText = (value: unknown): unknown => {
    const join = (value as { 'Fn::Join'?: [string, unknown[]] } | null)?.['Fn::Join'];
    if (!join) return value;
    return join[1]
      .map((part) => {
        if (typeof part === 'string') return part;
        const ref = (part as { Ref?: string }).Ref;
        return ref === 'AWS::Partition' ? 'aws' : ref ? `{${ref}}` : '?';
      })
      .join(join[0]);
  };
  const messaging = (statement: { Action: string | string[] }) =>
    [statement.Action].flat().some((action) => action.startsWith('ses:') || action.startsWith('sms-voice:'));

  it('grants nothing and subscribes nothing when no provider is configured', () => {
    for (const name of Object.keys(FUNCTIONS)) expect(statementsOf(template, name).filter(messaging)).toEqual([]);
    const https = Object.values(template.findResources('AWS::SNS::Subscription')).filter((s) => s.Properties.Protocol === 'https');
    expect(https).toEqual([]);
  });

  /** The logical id of the one resource of a type that the Delivery construct made. */
  const only = (tpl: Template, type: string) => {
    const ids = Object.keys(tpl.findResources(type)).filter((id) => id.startsWith('Delivery'));
    expect(ids, type).toHaveLength(1);
    return ids[0];
  };

  it('grants each notifying function exactly SendEmail on the identity and SendTextMessage / SendVoiceMessage on the numbers, nothing more', () => {
    // The configuration set the stack creates (named oncall-pages), by reference.
    const sesConfigurationSet = `arn:aws:ses:eu-west-1:123456789012:configuration-set/{${only(configured, 'AWS::SES::ConfigurationSet')}}`;
    const smsConfigurationSet = 'arn:aws:sms-voice:eu-west-1:123456789012:configuration-set/oncall-sms';
    for (const [name, definition] of Object.entries(FUNCTIONS)) {
      const granted = statementsOf(configured, name)
        .filter(messaging)
        .map((statement) => ({ ...statement, Resource: [statement.Resource].flat().map(arnText) }));
      if (!definition.notifies) {
        expect(granted, name).toEqual([]);
        continue;
      }
      expect(granted, name).toEqual(
        expect.arrayContaining([
          { Action: 'ses:SendEmail', Effect: 'Allow', Resource: [delivery.sesIdentityArn, sesConfigurationSet] },
          { Action: 'sms-voice:SendTextMessage', Effect: 'Allow', Resource: [delivery.smsOriginationIdentityArn, smsConfigurationSet] },
          { Action: 'sms-voice:SendVoiceMessage', Effect: 'Allow', Resource: [delivery.voiceOriginationIdentityArn, smsConfigurationSet] },
        ]),
      );
      expect(granted, name).toHaveLength(3);
    }
  });

  it('gives the notifying functions the providers’ settings, and only the inbound SMS function the topic', () => {
    const functions = configured.findResources('AWS::Lambda::Function');
    const envOf = (name: string) =>
      Object.entries(functions).find(([id]) => id.startsWith(`${name[0].toUpperCase()}${name.slice(1)}Function`))![1].Properties.Environment
        .Variables as Record<string, unknown>;
    for (const [name, definition] of Object.entries(FUNCTIONS)) {
      const variables = envOf(name);
      if (definition.notifies) {
        expect(variables, name).toMatchObject({
          SES_FROM_ADDRESS: delivery.sesFromAddress,
          SES_CONFIGURATION_SET: { Ref: only(configured, 'AWS::SES::ConfigurationSet') },
          SMS_ORIGINATION_IDENTITY: delivery.smsOriginationIdentityArn,
          VOICE_ORIGINATION_IDENTITY: delivery.voiceOriginationIdentityArn,
          SMS_CONFIGURATION_SET: 'oncall-sms',
          WEB_PUSH_SUBJECT: 'mailto:ops@example.com',
        });
      } else {
        expect(variables.SES_FROM_ADDRESS, name).toBeUndefined();
      }
      if (name === 'smsInbound') expect(variables.SMS_INBOUND_TOPIC_ARN).toBe(delivery.smsInboundTopicArn);
      else expect(variables.SMS_INBOUND_TOPIC_ARN, name).toBeUndefined();
      if (name === 'deliveryReceipts') expect(variables.DELIVERY_TOPIC_ARN).toEqual({ Ref: only(configured, 'AWS::SNS::Topic') });
      else expect(variables.DELIVERY_TOPIC_ARN, name).toBeUndefined();
    }
  });

  describe('delivery receipts', () => {
    it('creates one topic for them, encrypted with a rotated key of its own, SSL only', () => {
      const topic = only(configured, 'AWS::SNS::Topic');
      const key = only(configured, 'AWS::KMS::Key');
      configured.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [key, 'Arn'] } });
      configured.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
      configured.hasResourceProperties('AWS::SNS::TopicPolicy', {
        Topics: [{ Ref: topic }],
        PolicyDocument: Match.objectLike({
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        }),
      });
    });

    it('lets only SES and End User Messaging of this account publish, each for its own configuration set', () => {
      const statements = Object.values(configured.findResources('AWS::SNS::TopicPolicy')).flatMap(
        (policy) =>
          policy.Properties.PolicyDocument.Statement as { Effect: string; Principal?: { Service?: string }; Condition?: unknown }[],
      );
      const allowed = statements.filter((statement) => statement.Effect === 'Allow');
      expect(allowed.map((statement) => statement.Principal?.Service).sort()).toEqual(['ses.amazonaws.com', 'sms-voice.amazonaws.com']);
      const ses = allowed.find((statement) => statement.Principal?.Service === 'ses.amazonaws.com')!;
      expect(ses.Condition).toMatchObject({ StringEquals: { 'AWS:SourceAccount': '123456789012' } });
      const sourceArn = (ses.Condition as { StringEquals: { 'AWS:SourceArn': unknown } }).StringEquals['AWS:SourceArn'];
      expect(arnText(sourceArn)).toBe(
        `arn:aws:ses:eu-west-1:123456789012:configuration-set/{${only(configured, 'AWS::SES::ConfigurationSet')}}`,
      );
      const sms = allowed.find((statement) => statement.Principal?.Service === 'sms-voice.amazonaws.com')!;
      expect(sms.Condition).toMatchObject({ StringEquals: { 'aws:SourceAccount': '123456789012' } });
      expect(arnText((sms.Condition as { ArnEquals: { 'aws:SourceArn': unknown } }).ArnEquals['aws:SourceArn'])).toBe(
        'arn:aws:sms-voice:eu-west-1:123456789012:configuration-set/oncall-sms',
      );
      // The key serves the two publishers of this account, nobody else from outside.
      const keyStatements = Object.values(configured.findResources('AWS::KMS::Key'))[0].Properties.KeyPolicy.Statement as {
        Principal: { Service?: unknown };
        Condition?: unknown;
        Action: unknown;
      }[];
      const services = keyStatements.filter((statement) => statement.Principal.Service);
      expect(services).toEqual([
        expect.objectContaining({
          Action: ['kms:GenerateDataKey*', 'kms:Decrypt'],
          Principal: { Service: ['ses.amazonaws.com', 'sms-voice.amazonaws.com'] },
          Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
        }),
      ]);
    });

    it('creates the SES configuration set with an event destination to the topic for the events a receipt reads', () => {
      configured.hasResourceProperties('AWS::SES::ConfigurationSet', { Name: 'oncall-pages' });
      configured.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
        EventDestination: {
          Enabled: true,
          MatchingEventTypes: ['delivery', 'bounce', 'complaint', 'reject', 'renderingFailure', 'deliveryDelay'],
          SnsDestination: { TopicARN: { Ref: only(configured, 'AWS::SNS::Topic') } },
        },
      });
    });

    it('creates the End User Messaging configuration set with its event destination to the topic', () => {
      configured.hasResourceProperties('AWS::SMSVOICE::ConfigurationSet', {
        ConfigurationSetName: 'oncall-sms',
        EventDestinations: [
          {
            EventDestinationName: 'delivery-receipts',
            Enabled: true,
            MatchingEventTypes: Match.anyValue(),
            SnsDestination: { TopicArn: { Ref: only(configured, 'AWS::SNS::Topic') } },
          },
        ],
      });
      // Every event the contract names final (docs/api.md#delivery-receipts), and the carrier's acceptance.
      const [set] = Object.values(configured.findResources('AWS::SMSVOICE::ConfigurationSet'));
      expect([...set.Properties.EventDestinations[0].MatchingEventTypes].sort()).toEqual(
        [
          'TEXT_DELIVERED',
          'TEXT_SUCCESSFUL',
          'TEXT_BLOCKED',
          'TEXT_CARRIER_UNREACHABLE',
          'TEXT_INVALID',
          'TEXT_UNREACHABLE',
          'TEXT_TTL_EXPIRED',
          'TEXT_CARRIER_BLOCKED',
          'TEXT_SPAM',
          'VOICE_COMPLETED',
          'VOICE_FAILED',
          'VOICE_NO_ANSWER',
          'VOICE_BUSY',
        ].sort(),
      );
    });

    it('subscribes the receipts route to the topic over HTTPS, with the SNS envelope (signed) kept', () => {
      configured.hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'https',
        TopicArn: { Ref: only(configured, 'AWS::SNS::Topic') },
        Endpoint: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith(['/public/delivery/sns'])]) }),
        RawMessageDelivery: Match.absent(),
      });
    });

    it('gives the receipts function no AWS permission beyond the table and the escalation queue', () => {
      const actions = statementsOf(configured, 'deliveryReceipts').flatMap((statement) => [statement.Action].flat());
      expect(actions.filter((action) => !/^(dynamodb|sqs|kms|logs|xray):/.test(action))).toEqual([]);
      expect(actions.filter((action) => /^(sns|ses|sms-voice):/.test(action))).toEqual([]);
    });

    it('creates none of it when neither SES nor End User Messaging sends', () => {
      for (const type of ['AWS::SNS::Topic', 'AWS::KMS::Key', 'AWS::SES::ConfigurationSet', 'AWS::SMSVOICE::ConfigurationSet']) {
        expect(
          Object.keys(template.findResources(type)).filter((id) => id.startsWith('Delivery')),
          type,
        ).toEqual([]);
      }
      const functions = template.findResources('AWS::Lambda::Function');
      const receipts = Object.entries(functions).find(([id]) => id.startsWith('DeliveryReceiptsFunction'))![1];
      expect(receipts.Properties.Environment.Variables.DELIVERY_TOPIC_ARN).toBeUndefined();
    });
  });

  it('subscribes the inbound SMS route to the topic over HTTPS', () => {
    configured.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'https',
      TopicArn: delivery.smsInboundTopicArn,
      Endpoint: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith(['/public/sms/inbound'])]) }),
    });
  });

  it('marks exactly the functions whose bundle sends notifications', async () => {
    for (const [name, definition] of Object.entries(FUNCTIONS)) {
      // A bundle that can reach a provider (a page, a reply to an SMS) needs the delivery grants.
      expect(Boolean(definition.notifies), name).toBe(
        (await bundleInputsOf(definition.entry)).includes('lib/notify/providers/select-provider.ts'),
      );
    }
  }, 120_000);

  it('passes cdk-nag with every provider configured', () => {
    const app = new App({ context, outdir: outdir() });
    new OncallStack(app, 'NagDelivering', { env, delivery });
    addNagChecks(app);
    const assembly = app.synth();
    const report = JSON.parse(readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8'));
    expect(report.pluginReports).toEqual([]);
  });

  it('refuses a configuration it cannot grant narrowly', () => {
    const attempt = (config: Record<string, string>) => () =>
      new OncallStack(new App({ context, outdir: outdir() }), 'Bad', { env, delivery: config });
    expect(attempt({ sesFromAddress: 'oncall@example.com' })).toThrow(/sesFromAddress and sesIdentityArn go together/);
    expect(attempt({ smsOriginationIdentityArn: '*' })).toThrow(/smsOriginationIdentityArn must be an End User Messaging/);
    expect(attempt({ smsInboundTopicArn: delivery.smsInboundTopicArn })).toThrow(/needs smsOriginationIdentityArn/);
  });
});

describe('Slack (the sealing key, the app of "Add to Slack")', () => {
  const slack = { slackClientId: '1234567890.0987654321', slackAppSecretName: 'oncall/slack-app', slackApiUrl: 'https://slack.com/api/' };
  let configured: Template;
  beforeAll(() => {
    const app = new App({ context, outdir: outdir() });
    configured = Template.fromStack(new OncallStack(app, 'Slacking', { slack }));
  });
  const envOf = (tpl: Template, name: string) =>
    Object.entries(tpl.findResources('AWS::Lambda::Function')).find(([id]) =>
      id.startsWith(`${name[0].toUpperCase()}${name.slice(1)}Function`),
    )![1].Properties.Environment.Variables as Record<string, unknown>;
  /** A CloudFormation dynamic reference to Secrets Manager, as the template carries it. */
  const secretReference = (value: unknown) => JSON.stringify(value).includes('{{resolve:secretsmanager:');

  it('generates the sealing key in Secrets Manager, kept when the stack goes', () => {
    template.hasResource('AWS::SecretsManager::Secret', {
      Properties: { GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true } },
      DeletionPolicy: 'Retain',
    });
  });

  it('hands SECRETS_KEY, as a dynamic reference, to exactly the functions that open sealed secrets', () => {
    for (const [name, definition] of Object.entries(FUNCTIONS)) {
      const variables = envOf(template, name);
      if (definition.opensSealedSecrets) expect(secretReference(variables.SECRETS_KEY), name).toBe(true);
      else expect(variables.SECRETS_KEY, name).toBeUndefined();
      expect(variables.SLACK_CLIENT_ID, name).toBeUndefined();
    }
    expect(FUNCTIONS.slack.slack && FUNCTIONS.webhookWorker.slack && FUNCTIONS.escalationWorker.slack).toBe(true);
    // Single sign-on opens its client secret, and has nothing to do with Slack.
    expect([FUNCTIONS.sso.opensSealedSecrets, FUNCTIONS.sso.slack]).toEqual([true, undefined]);
  });

  it('gives them the app of "Add to Slack" when configured: its id, and its secrets by reference only', () => {
    for (const [name, definition] of Object.entries(FUNCTIONS)) {
      const variables = envOf(configured, name);
      if (!definition.slack) {
        expect(variables.SLACK_CLIENT_SECRET, name).toBeUndefined();
        continue;
      }
      expect(variables, name).toMatchObject({ SLACK_CLIENT_ID: slack.slackClientId, SLACK_API_URL: slack.slackApiUrl });
      expect(JSON.stringify(variables.SLACK_CLIENT_SECRET), name).toContain(
        `{{resolve:secretsmanager:${slack.slackAppSecretName}:SecretString:client_secret`,
      );
      expect(JSON.stringify(variables.SLACK_SIGNING_SECRET), name).toContain(
        `{{resolve:secretsmanager:${slack.slackAppSecretName}:SecretString:signing_secret`,
      );
    }
    // No function may read any secret itself: the values arrive resolved.
    const reads = JSON.stringify(configured.findResources('AWS::IAM::Policy')).includes('secretsmanager:GetSecretValue');
    expect(reads).toBe(false);
  });

  it('marks exactly the functions whose bundle opens sealed secrets', async () => {
    for (const [name, definition] of Object.entries(FUNCTIONS)) {
      expect(Boolean(definition.opensSealedSecrets), name).toBe(
        (await bundleInputsOf(definition.entry)).includes('lib/auth/sealed-secrets.ts'),
      );
    }
  }, 120_000);

  it('passes cdk-nag with the Slack app configured', () => {
    const app = new App({ context, outdir: outdir() });
    new OncallStack(app, 'NagSlacking', { slack });
    addNagChecks(app);
    const assembly = app.synth();
    const report = JSON.parse(readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8'));
    expect(report.pluginReports).toEqual([]);
  });

  it('refuses an app without its secret', () => {
    expect(() => new OncallStack(new App({ context, outdir: outdir() }), 'Bad', { slack: { slackClientId: 'x' } })).toThrow(
      /slackClientId and slackAppSecretName go together/,
    );
  });
});
