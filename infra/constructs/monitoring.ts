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
  Metric,
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
import { METRIC, METRICS_NAMESPACE, METRICS_SERVICE } from '../../lib/metrics';
import type { ServiceFunction } from './service-function';

/** The thresholds, in one place (the stack test pins them). */
/** Functions per throttling alarm: a metric math alarm reads at most 10 metrics. */
const THROTTLE_GROUP = 10;

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
  /** An alert's creation → its first page sent, p99 over five minutes (ms): more is a slow pager. */
  timeToPageP99Ms: 60_000,
  /** A provider's failed deliveries in percent over fifteen minutes, once it made enough of them. */
  providerFailurePercent: 10,
  providerFailureMinDeliveries: 5,
  /** An escalation step run this long after its due time, p99 over five minutes (ms). */
  timerLatenessP99Ms: 60_000,
  /** The canary paged its team at least once in this many minutes, else it is silent. */
  canarySilenceMinutes: 30,
} as const;

/** The delivery providers whose failure rate is alarmed (lib/notify/providers: their `provider` names).
 * The local outbox and `none` (a channel without a provider) are not a provider that can fail. */
export const WATCHED_PROVIDERS = ['ses', 'sms-voice-v2', 'web-push', 'slack'] as const;

/** The channels whose pages the dashboard counts (lib/notify/records.ts). */
const CHANNELS = ['push', 'email', 'sms', 'voice', 'slack'] as const;

const FIVE_MINUTES = Duration.minutes(5);
const ONE_MINUTE = Duration.minutes(1);
const FIFTEEN_MINUTES = Duration.minutes(15);

export interface MonitoringProps {
  queues: Record<QueueName, Queue>;
  functions: Record<FunctionName, ServiceFunction>;
  api: HttpApi;
  /** Where alarms are e-mailed (`-c alarmEmail=…`); without it, subscribe to the topic yourself. */
  alarmEmail?: string;
  /** The canary runs (CANARY_TEAM_ID is set): its silence is alarmed. */
  canary?: boolean;
}

const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);

type AlarmMaker = (
  name: string,
  metric: IMetric,
  threshold: number,
  description: string,
  evaluationPeriods?: number,
  comparison?: { operator: ComparisonOperator; missing: TreatMissingData },
) => Alarm;

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

    const alarm = (
      name: string,
      metric: IMetric,
      threshold: number,
      description: string,
      evaluationPeriods = 1,
      comparison: { operator: ComparisonOperator; missing: TreatMissingData } = {
        operator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        missing: TreatMissingData.NOT_BREACHING,
      },
    ) => {
      const created = new Alarm(this, name, {
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: comparison.operator,
        treatMissingData: comparison.missing,
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
    const names = Object.keys(FUNCTIONS) as FunctionName[];
    for (const name of names) {
      const fn = props.functions[name].fn;
      const errors = fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' });
      const throttles = fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' });
      alarm(
        `${pascal(name)}Errors`,
        errors,
        ALARM_THRESHOLDS.functionErrors,
        `The ${name} function failed (an uncaught error or a timeout): read its logs.`,
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

    // Throttling is the account's concurrency used up, which every function feels at once: one alarm
    // per group of functions (a metric math alarm reads at most 10 metrics) rather than one each keeps
    // the stack under CloudFormation's 500 resources; the dashboard's function graphs say which.
    for (let start = 0, group = 1; start < names.length; start += THROTTLE_GROUP, group++) {
      const members = names.slice(start, start + THROTTLE_GROUP);
      const usingMetrics = Object.fromEntries(
        members.map((name, i) => [`t${i}`, props.functions[name].fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' })]),
      );
      alarm(
        `FunctionThrottles${group}`,
        new MathExpression({
          expression: members.map((_, i) => `FILL(t${i}, 0)`).join(' + '),
          usingMetrics,
          period: FIVE_MINUTES,
          label: 'Throttled invocations',
        }),
        ALARM_THRESHOLDS.functionThrottles,
        `A function was throttled (${members.join(', ')}): the account's concurrency is used up, and requests or queue batches wait.`,
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

    const pagingWidgets = this.watchPaging(alarm, props.canary ?? false);

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
    this.dashboard.addWidgets(...pagingWidgets);
    this.dashboard.addWidgets(...queueWidgets);
    this.dashboard.addWidgets(...functionWidgets);
  }

  /**
   * The service's own figures (lib/metrics.ts, EMF written by the functions): time to page, each
   * provider's failure rate, the escalation timers' lateness and, with a canary, its silence.
   */
  private watchPaging(alarm: AlarmMaker, canary: boolean): GraphWidget[] {
    const own = (name: string, statistic: string, period: Duration, dimensions: Record<string, string> = {}, label?: string) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: name,
        dimensionsMap: { service: METRICS_SERVICE, ...dimensions },
        statistic,
        period,
        label,
      });

    const timeToPage = own(METRIC.timeToPage.name, 'p99', FIVE_MINUTES);
    alarm(
      'TimeToPageP99',
      timeToPage,
      ALARM_THRESHOLDS.timeToPageP99Ms,
      `The p99 of time to page (an alert created → its first page sent) passed ${ALARM_THRESHOLDS.timeToPageP99Ms / 1000} s over five minutes: routing, the escalation worker or a provider is slow. The dashboard's Paging row says which.`,
      1,
      { operator: ComparisonOperator.GREATER_THAN_THRESHOLD, missing: TreatMissingData.NOT_BREACHING },
    );

    const failureRates: MathExpression[] = [];
    for (const provider of WATCHED_PROVIDERS) {
      const deliveries = own(METRIC.deliveries.name, 'Sum', FIFTEEN_MINUTES, { provider });
      const failures = own(METRIC.deliveryFailures.name, 'Sum', FIFTEEN_MINUTES, { provider });
      // Ids unique across providers: the dashboard draws every rate in one graph.
      const id = provider.replace(/-/g, '_');
      const rate = new MathExpression({
        expression: `IF(deliveries_${id} >= ${ALARM_THRESHOLDS.providerFailureMinDeliveries}, 100 * FILL(failures_${id}, 0) / deliveries_${id}, 0)`,
        usingMetrics: { [`deliveries_${id}`]: deliveries, [`failures_${id}`]: failures },
        period: FIFTEEN_MINUTES,
        label: `${provider} failures (%)`,
      });
      failureRates.push(rate);
      alarm(
        `${pascal(provider.replace(/-(.)/g, (_, c: string) => c.toUpperCase()))}FailureRate`,
        rate,
        ALARM_THRESHOLDS.providerFailurePercent,
        `More than ${ALARM_THRESHOLDS.providerFailurePercent} % of the notifications given to ${provider} failed over fifteen minutes (at least ${ALARM_THRESHOLDS.providerFailureMinDeliveries} sent): pages fail over to other channels, but people may be missed. The notifications' err says why.`,
        1,
        { operator: ComparisonOperator.GREATER_THAN_THRESHOLD, missing: TreatMissingData.NOT_BREACHING },
      );
    }

    const lateness = own(METRIC.timerLateness.name, 'p99', FIVE_MINUTES);
    alarm(
      'TimerLatenessP99',
      lateness,
      ALARM_THRESHOLDS.timerLatenessP99Ms,
      `Escalation steps ran more than ${ALARM_THRESHOLDS.timerLatenessP99Ms / 1000} s after their due time (p99 over five minutes): the escalation queue's delayed messages are lost or its worker is behind, and the sweeper catches up. GET /health shows the oldest overdue step.`,
      1,
      { operator: ComparisonOperator.GREATER_THAN_THRESHOLD, missing: TreatMissingData.NOT_BREACHING },
    );

    const canaryPaged = own(METRIC.canarySucceeded.name, 'Sum', Duration.minutes(ALARM_THRESHOLDS.canarySilenceMinutes));
    if (canary) {
      alarm(
        'CanarySilent',
        canaryPaged,
        1,
        `The canary (README "Monitoring") paged its team no time in ${ALARM_THRESHOLDS.canarySilenceMinutes} minutes: an alert may go through the pipeline without paging anyone, or the sweeper that runs the canary is not running.`,
        1,
        { operator: ComparisonOperator.LESS_THAN_THRESHOLD, missing: TreatMissingData.BREACHING },
      );
    }

    return [
      new GraphWidget({
        title: 'Time to page',
        left: [
          own(METRIC.timeToPage.name, 'p50', FIVE_MINUTES, {}, 'p50 (ms)'),
          timeToPage.with({ label: 'p99 (ms)' }),
          ...(canary ? [own(METRIC.canaryTimeToPage.name, 'Maximum', FIFTEEN_MINUTES, {}, 'canary (ms)')] : []),
        ],
        right: [own(METRIC.webhookToAlert.name, 'p99', FIVE_MINUTES, {}, 'webhook → alert p99 (ms)')],
        width: 8,
      }),
      new GraphWidget({
        title: 'Pages per channel and provider failures',
        left: CHANNELS.map((channel) => own(METRIC.pagesSent.name, 'Sum', FIVE_MINUTES, { channel }, `${channel} pages`)),
        right: failureRates,
        width: 8,
      }),
      new GraphWidget({
        title: 'Escalation timers',
        left: [
          lateness.with({ label: 'lateness p99 (ms)' }),
          own(METRIC.timerLateness.name, 'Maximum', FIVE_MINUTES, {}, 'timer lateness max (ms)'),
        ],
        right: canary
          ? [canaryPaged.with({ label: 'canary pages' }), own(METRIC.canaryFailed.name, 'Sum', FIFTEEN_MINUTES, {}, 'canary failures')]
          : [],
        width: 8,
      }),
    ];
  }
}
