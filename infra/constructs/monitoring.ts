// Who watches the pager: a paging system that fails quietly is worse than none. Alarms on every
// dead-letter queue (any message), on every queue's oldest message, on every function's errors and
// throttles and on the API's 5xx rate, all sent to one SNS topic of the stack (an e-mail subscription
// when the deployment names an address), and a dashboard of the same. The set is derived from the
// catalogue (infra/functions.ts, lib/queues/definitions.ts): a new queue or function is watched the day it is added.
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { FUNCTIONS, QUEUES, type FunctionName, type QueueName } from '../functions';
import type { ServiceFunction } from './service-function';

/** The thresholds, in one place (the stack test pins them). */
export const ALARM_THRESHOLDS = {
  /** Messages in a dead-letter queue: any. */
  deadLetters: 1,
  /** Age of a queue's oldest message: an alert or a webhook that waited this long is late. */
  oldestMessageSeconds: 300,
  /** Function errors (uncaught, timeouts) in five minutes. */
  functionErrors: 1,
  /** Function throttles in five minutes. */
  functionThrottles: 1,
  /** Share of API answers that are 5xx, in percent over five minutes, once there are enough of them. */
  api5xxPercent: 5,
  api5xxMinRequests: 20,
} as const;

const FIVE_MINUTES = Duration.minutes(5);
const ONE_MINUTE = Duration.minutes(1);

export interface MonitoringProps {
  queues: Record<QueueName, Queue>;
  functions: Record<FunctionName, ServiceFunction>;
  api: HttpApi;
  /** Where alarms are e-mailed (`-c alarmEmail=…`); without it, subscribe to the topic yourself. */
  alarmEmail?: string;
}

const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);

export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    // CloudWatch can publish to an encrypted topic only with a key whose policy lets it use the key.
    const key = new Key(this, 'TopicKey', {
      description: 'Encrypts the alarm topic of the on-call service',
      enableKeyRotation: true,
    });
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: 'On-call service alarms',
      masterKey: key,
      enforceSSL: true,
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    const alarm = (name: string, metric: IMetric, threshold: number, description: string, evaluationPeriods = 1) => {
      const created = new Alarm(this, name, {
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    const queueWidgets: GraphWidget[] = [];
    for (const queue of Object.values(QUEUES)) {
      const main = props.queues[queue.name];
      const dlq = main.deadLetterQueue!.queue;
      const deadLetters = dlq.metricApproximateNumberOfMessagesVisible({ period: ONE_MINUTE, statistic: 'Maximum' });
      const oldest = main.metricApproximateAgeOfOldestMessage({ period: ONE_MINUTE, statistic: 'Maximum' });
      alarm(
        `${pascal(queue.name)}DeadLetters`,
        deadLetters,
        ALARM_THRESHOLDS.deadLetters,
        `A message of the ${queue.name} queue exhausted its ${queue.maxReceiveCount} receives and rests in its dead-letter queue: look at it, fix the cause, redrive it.`,
      );
      alarm(
        `${pascal(queue.name)}OldestMessage`,
        oldest,
        ALARM_THRESHOLDS.oldestMessageSeconds,
        `The oldest message of the ${queue.name} queue waited ${ALARM_THRESHOLDS.oldestMessageSeconds} s or more: its worker (${queue.consumer}) is failing or falling behind.`,
      );
      queueWidgets.push(
        new GraphWidget({
          title: `${queue.name} queue`,
          left: [
            main.metricApproximateNumberOfMessagesVisible({ period: ONE_MINUTE, statistic: 'Maximum', label: 'waiting' }),
            deadLetters.with({ label: 'dead letters' }),
          ],
          right: [oldest.with({ label: 'oldest message (s)' })],
          width: 8,
        }),
      );
    }

    const functionWidgets: GraphWidget[] = [];
    for (const name of Object.keys(FUNCTIONS) as FunctionName[]) {
      const fn = props.functions[name].fn;
      const errors = fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' });
      const throttles = fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' });
      alarm(
        `${pascal(name)}Errors`,
        errors,
        ALARM_THRESHOLDS.functionErrors,
        `The ${name} function failed (an uncaught error or a timeout): read its logs.`,
      );
      alarm(
        `${pascal(name)}Throttles`,
        throttles,
        ALARM_THRESHOLDS.functionThrottles,
        `The ${name} function was throttled: the account's concurrency is used up, and requests or queue batches wait.`,
      );
      functionWidgets.push(
        new GraphWidget({
          title: `${name} function`,
          left: [fn.metricInvocations({ period: FIVE_MINUTES, statistic: 'Sum' }), errors, throttles],
          right: [fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99' })],
          width: 6,
        }),
      );
    }

    const requests = props.api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const rate = new MathExpression({
      expression: `IF(requests >= ${ALARM_THRESHOLDS.api5xxMinRequests}, 100 * errors / requests, 0)`,
      usingMetrics: { requests, errors: serverErrors },
      period: FIVE_MINUTES,
      label: 'API 5xx (%)',
    });
    alarm(
      'Api5xxRate',
      rate,
      ALARM_THRESHOLDS.api5xxPercent,
      `${ALARM_THRESHOLDS.api5xxPercent} % or more of the API's answers were 5xx over five minutes: the functions' error alarms and logs say which route.`,
    );

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          "# On-call service\nAlarms go to the stack's alarm topic. A dead letter is an alert, a webhook or a page that needs someone's eyes.",
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 6 }));
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'API',
        left: [requests, serverErrors, props.api.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' })],
        right: [rate],
        width: 24,
      }),
    );
    this.dashboard.addWidgets(...queueWidgets);
    this.dashboard.addWidgets(...functionWidgets);
  }
}
