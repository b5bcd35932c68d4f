import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS, QUEUES, visibilityTimeoutSeconds } from '../../infra/catalogue';
import { addNagChecks } from '../../infra/checks';
import { ROUTES } from '../../infra/routes';
import { OncallStack } from '../../infra/stack';
import { INDEXES } from '../../lib/store/table';

// Bundling is skipped here (the CI synth bundles for real); the template is the same otherwise.
const context = { 'aws:cdk:bundling-stacks': [] };
const outdirs: string[] = [];
const outdir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cdk-test-'));
  outdirs.push(dir);
  return dir;
};
afterAll(() => outdirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

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
        GlobalSecondaryIndexes: INDEXES.map((index) =>
          Match.objectLike({
            IndexName: index.name,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          }),
        ),
      }),
    });
  });

  it('gives every queue a dead-letter queue, 3–5 receives and a visibility of at least 6× its consumer’s timeout', () => {
    const queues = template.findResources('AWS::SQS::Queue');
    const withRedrive = Object.values(queues).filter((q: any) => q.Properties.RedrivePolicy);
    expect(withRedrive).toHaveLength(Object.keys(QUEUES).length);
    expect(Object.keys(queues)).toHaveLength(Object.keys(QUEUES).length * 2);
    for (const queue of Object.values(QUEUES)) {
      expect(queue.maxReceiveCount).toBeGreaterThanOrEqual(3);
      expect(queue.maxReceiveCount).toBeLessThanOrEqual(5);
      expect(visibilityTimeoutSeconds(queue)).toBeGreaterThanOrEqual(6 * FUNCTIONS[queue.consumer].timeoutSeconds);
      template.hasResourceProperties('AWS::SQS::Queue', {
        VisibilityTimeout: visibilityTimeoutSeconds(queue),
        RedrivePolicy: { maxReceiveCount: queue.maxReceiveCount, deadLetterTargetArn: Match.anyValue() },
      });
    }
  });

  it('deploys one nodejs22.x arm64 function per catalogue entry', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(functions).toHaveLength(Object.keys(FUNCTIONS).length);
    for (const fn of functions as any[]) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.Handler).toBe('index.handler');
    }
  });

  it('feeds each worker from its queue with partial batch failures', () => {
    for (const queue of Object.values(QUEUES)) {
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        BatchSize: queue.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', Object.keys(QUEUES).length);
  });

  it('creates an API route for every entry of the route table, and a $default catch-all', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r: any) => r.Properties.RouteKey);
    for (const route of ROUTES) expect(routes).toContain(`${route.method} ${route.path}`);
    expect(routes).toContain('$default');
    expect(routes.length).toBe(ROUTES.length + 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['*'] }),
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
  });

  it('runs the scheduled functions on their schedule', () => {
    for (const definition of Object.values(FUNCTIONS).filter((f) => f.schedule)) {
      template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: definition.schedule });
    }
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
