// Deployed delivery of notifications (README "Delivering notifications"): e-mail through SES, SMS
// and calls through AWS End User Messaging SMS and Voice v2, push through Web Push, and inbound SMS
// (replies to pages) from End User Messaging's SNS topic. Each is switched on by `cdk deploy`
// context; a channel left out stays unconfigured (its messages are recorded failed with the reason).
// Least privilege: only the functions that send notifications get the providers' settings and
// grants, and each grant names the one identity (and configuration set) it may send from.
import { Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Subscription, SubscriptionProtocol, Topic } from 'aws-cdk-lib/aws-sns';
import { Construct, type Node } from 'constructs';
import { contextStrings } from '../context';
import type { FunctionName } from '../functions';
import type { ServiceFunction } from './service-function';

export interface DeliveryConfig {
  /** SES: the sender (`On-call <oncall@example.com>`), and the ARN of its verified identity (the grant's resource). */
  sesFromAddress?: string;
  sesIdentityArn?: string;
  sesConfigurationSet?: string;
  /** End User Messaging: the ARNs of the phone numbers (or pools, sender ids) SMS and calls go out from. */
  smsOriginationIdentityArn?: string;
  voiceOriginationIdentityArn?: string;
  smsConfigurationSet?: string;
  /** The SNS topic End User Messaging publishes inbound SMS to (two-way SMS of the SMS number). */
  smsInboundTopicArn?: string;
  /** Web Push: the VAPID subject (`mailto:` or `https:`); the keys are generated once and kept in the table. */
  webPushSubject?: string;
}

const CONTEXT_KEYS: (keyof DeliveryConfig)[] = [
  'sesFromAddress',
  'sesIdentityArn',
  'sesConfigurationSet',
  'smsOriginationIdentityArn',
  'voiceOriginationIdentityArn',
  'smsConfigurationSet',
  'smsInboundTopicArn',
  'webPushSubject',
];

/** The delivery settings given as `cdk deploy -c <key>=<value>`. */
export function deliveryFromContext(node: Node): DeliveryConfig {
  return contextStrings(node, CONTEXT_KEYS);
}

const SES_IDENTITY_ARN = /^arn:aws[a-z-]*:ses:[a-z0-9-]+:\d{12}:identity\/.+$/;
const ORIGINATION_ARN = /^arn:aws[a-z-]*:sms-voice:[a-z0-9-]+:\d{12}:(phone-number|pool|sender-id)\/.+$/;
const TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]+$/;

/** Refuses a configuration that cannot be granted narrowly (a sender without its identity's ARN, a malformed ARN). */
export function checkDelivery(config: DeliveryConfig): void {
  const problems: string[] = [];
  if (Boolean(config.sesFromAddress) !== Boolean(config.sesIdentityArn))
    problems.push('sesFromAddress and sesIdentityArn go together (the grant names the identity)');
  if (config.sesIdentityArn && !SES_IDENTITY_ARN.test(config.sesIdentityArn))
    problems.push('sesIdentityArn must be an SES identity ARN (arn:aws:ses:<region>:<account>:identity/<domain or address>)');
  for (const key of ['smsOriginationIdentityArn', 'voiceOriginationIdentityArn'] as const) {
    const value = config[key];
    if (value && !ORIGINATION_ARN.test(value))
      problems.push(`${key} must be an End User Messaging phone-number, pool or sender-id ARN (arn:aws:sms-voice:…)`);
  }
  if (config.smsInboundTopicArn && !TOPIC_ARN.test(config.smsInboundTopicArn)) problems.push('smsInboundTopicArn must be an SNS topic ARN');
  if (config.smsInboundTopicArn && !config.smsOriginationIdentityArn)
    problems.push('smsInboundTopicArn needs smsOriginationIdentityArn (replies are texted back)');
  if (config.webPushSubject && !/^(mailto:|https:\/\/)/.test(config.webPushSubject))
    problems.push('webPushSubject must be a mailto: or https: URL');
  if (problems.length > 0) throw new Error(`Delivery configuration: ${problems.join('; ')}`);
}

export interface DeliveryProps {
  config: DeliveryConfig;
  functions: Record<FunctionName, ServiceFunction>;
  notifying: readonly FunctionName[];
  api: HttpApi;
}

export class Delivery extends Construct {
  constructor(scope: Construct, id: string, props: DeliveryProps) {
    super(scope, id);
    const { config } = props;
    checkDelivery(config);
    const stack = Stack.of(this);
    const smsConfigurationSetArn = config.smsConfigurationSet
      ? stack.formatArn({ service: 'sms-voice', resource: 'configuration-set', resourceName: config.smsConfigurationSet })
      : null;
    const environment: Record<string, string> = {};
    const statements: PolicyStatement[] = [];

    if (config.sesFromAddress && config.sesIdentityArn) {
      environment.SES_FROM_ADDRESS = config.sesFromAddress;
      const resources = [config.sesIdentityArn];
      if (config.sesConfigurationSet) {
        environment.SES_CONFIGURATION_SET = config.sesConfigurationSet;
        resources.push(stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: config.sesConfigurationSet }));
      }
      statements.push(new PolicyStatement({ effect: Effect.ALLOW, actions: ['ses:SendEmail'], resources }));
    }
    if (config.smsOriginationIdentityArn) {
      environment.SMS_ORIGINATION_IDENTITY = config.smsOriginationIdentityArn;
      statements.push(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['sms-voice:SendTextMessage'],
          resources: [config.smsOriginationIdentityArn, ...(smsConfigurationSetArn ? [smsConfigurationSetArn] : [])],
        }),
      );
    }
    if (config.voiceOriginationIdentityArn) {
      environment.VOICE_ORIGINATION_IDENTITY = config.voiceOriginationIdentityArn;
      statements.push(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['sms-voice:SendVoiceMessage'],
          resources: [config.voiceOriginationIdentityArn, ...(smsConfigurationSetArn ? [smsConfigurationSetArn] : [])],
        }),
      );
    }
    if (smsConfigurationSetArn && (config.smsOriginationIdentityArn || config.voiceOriginationIdentityArn)) {
      environment.SMS_CONFIGURATION_SET = config.smsConfigurationSet!;
    }
    if (config.webPushSubject) environment.WEB_PUSH_SUBJECT = config.webPushSubject;

    for (const name of props.notifying) {
      const fn = props.functions[name].fn;
      for (const [key, value] of Object.entries(environment)) fn.addEnvironment(key, value);
      for (const statement of statements) fn.addToRolePolicy(statement);
    }

    // Inbound SMS: the topic delivers to the API over HTTPS; the function checks the SNS signature
    // and that the message is this topic's, so it needs no AWS permission at all.
    if (config.smsInboundTopicArn) {
      props.functions.smsInbound.fn.addEnvironment('SMS_INBOUND_TOPIC_ARN', config.smsInboundTopicArn);
      new Subscription(this, 'InboundSmsSubscription', {
        topic: Topic.fromTopicArn(this, 'InboundSmsTopic', config.smsInboundTopicArn),
        protocol: SubscriptionProtocol.HTTPS,
        endpoint: `${props.api.apiEndpoint}/public/sms/inbound`,
      });
    }
  }
}
