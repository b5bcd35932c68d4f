// Deployed delivery of notifications (README "Delivering notifications"): e-mail through SES, SMS
// and calls through AWS End User Messaging SMS and Voice v2, push through Web Push, and inbound SMS
// (replies to pages) from End User Messaging's SNS topic. Each is switched on by `cdk deploy`
// context; a channel left out stays unconfigured (its messages are recorded failed with the reason).
// Least privilege: only the functions that send notifications get the providers' settings and
// grants, and each grant names the one identity (and configuration set) it may send from.
//
// Delivery receipts (docs/api.md#delivery-receipts), whenever SES or End User Messaging sends: the
// stack creates the configuration sets the messages go out with, each with an event destination to
// one SNS topic of the stack (encrypted with a key of its own that only SES and End User Messaging
// of this account may use to publish, SSL only), and subscribes the receipts route to it over HTTPS.
// The receipts function reads the topic's ARN and needs no AWS permission (it checks the SNS
// signature and the topic of what it is sent).
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { ConfigurationSet, ConfigurationSetEventDestination, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { CfnConfigurationSet as CfnSmsConfigurationSet } from 'aws-cdk-lib/aws-smsvoice';
import { Subscription, SubscriptionProtocol, Topic } from 'aws-cdk-lib/aws-sns';
import { Construct, type Node } from 'constructs';
import { SMS_VOICE_DELIVERED, SMS_VOICE_FAILED } from '../../lib/delivery-receipts/receipt-events';
import { contextStrings } from '../context';
import type { FunctionName } from '../functions';
import type { ServiceFunction } from './service-function';

export interface DeliveryConfig {
  /** SES: the sender (`On-call <oncall@example.com>`), and the ARN of its verified identity (the grant's resource). */
  sesFromAddress?: string;
  sesIdentityArn?: string;
  /** The name of the SES configuration set the stack creates (default: a generated one). */
  sesConfigurationSet?: string;
  /** End User Messaging: the ARNs of the phone numbers (or pools, sender ids) SMS and calls go out from. */
  smsOriginationIdentityArn?: string;
  voiceOriginationIdentityArn?: string;
  /** The name of the End User Messaging configuration set the stack creates (default: `<stack name>-sms-voice`). */
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

/** The SES events a receipt reads (docs/api.md#delivery-receipts); Send, Open and Click are left out. */
const EMAIL_RECEIPT_EVENTS = [
  EmailSendingEvent.DELIVERY,
  EmailSendingEvent.BOUNCE,
  EmailSendingEvent.COMPLAINT,
  EmailSendingEvent.REJECT,
  EmailSendingEvent.RENDERING_FAILURE,
  EmailSendingEvent.DELIVERY_DELAY,
];

/** The End User Messaging events a receipt reads: the final ones, and a carrier's acceptance (shown, not final). */
export const SMS_VOICE_RECEIPT_EVENTS = [...SMS_VOICE_DELIVERED, 'TEXT_SUCCESSFUL', ...SMS_VOICE_FAILED];

export interface DeliveryProps {
  config: DeliveryConfig;
  functions: Record<FunctionName, ServiceFunction>;
  notifying: readonly FunctionName[];
  api: HttpApi;
}

export class Delivery extends Construct {
  /** The topic SES and End User Messaging publish delivery events to; absent when neither sends. */
  readonly receiptsTopic?: Topic;

  constructor(scope: Construct, id: string, props: DeliveryProps) {
    super(scope, id);
    const { config } = props;
    checkDelivery(config);
    const stack = Stack.of(this);
    const sendsEmail = Boolean(config.sesFromAddress && config.sesIdentityArn);
    const sendsSmsOrVoice = Boolean(config.smsOriginationIdentityArn || config.voiceOriginationIdentityArn);
    const environment: Record<string, string> = {};
    const statements: PolicyStatement[] = [];

    const topic = sendsEmail || sendsSmsOrVoice ? this.receipts(props.api) : undefined;
    this.receiptsTopic = topic;
    if (topic) props.functions.deliveryReceipts.fn.addEnvironment('DELIVERY_TOPIC_ARN', topic.topicArn);

    if (sendsEmail && topic) {
      environment.SES_FROM_ADDRESS = config.sesFromAddress!;
      const configurationSet = new ConfigurationSet(this, 'EmailConfigurationSet', {
        configurationSetName: config.sesConfigurationSet,
      });
      new ConfigurationSetEventDestination(this, 'EmailReceipts', {
        configurationSet,
        destination: EventDestination.snsTopic(topic),
        events: EMAIL_RECEIPT_EVENTS,
      });
      environment.SES_CONFIGURATION_SET = configurationSet.configurationSetName;
      const configurationSetArn = stack.formatArn({
        service: 'ses',
        resource: 'configuration-set',
        resourceName: configurationSet.configurationSetName,
      });
      statements.push(
        new PolicyStatement({ effect: Effect.ALLOW, actions: ['ses:SendEmail'], resources: [config.sesIdentityArn!, configurationSetArn] }),
      );
    }
    let smsConfigurationSetArn: string | null = null;
    if (sendsSmsOrVoice && topic) {
      // Named up front: the topic policy names it, and the set needs the policy in place first.
      const name = config.smsConfigurationSet ?? `${stack.stackName}-sms-voice`;
      const configurationSet = new CfnSmsConfigurationSet(this, 'SmsVoiceConfigurationSet', {
        configurationSetName: name,
        eventDestinations: [
          {
            eventDestinationName: 'delivery-receipts',
            enabled: true,
            matchingEventTypes: SMS_VOICE_RECEIPT_EVENTS,
            snsDestination: { topicArn: topic.topicArn },
          },
        ],
      });
      smsConfigurationSetArn = stack.formatArn({ service: 'sms-voice', resource: 'configuration-set', resourceName: name });
      environment.SMS_CONFIGURATION_SET = name;
      // End User Messaging publishes for this configuration set of this account only.
      const allowed = topic.addToResourcePolicy(
        new PolicyStatement({
          actions: ['sns:Publish'],
          resources: [topic.topicArn],
          principals: [new ServicePrincipal('sms-voice.amazonaws.com')],
          conditions: { StringEquals: { 'aws:SourceAccount': stack.account }, ArnEquals: { 'aws:SourceArn': smsConfigurationSetArn } },
        }),
      );
      if (allowed.policyDependable) configurationSet.node.addDependency(allowed.policyDependable);
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

  /** The receipts topic, its key, and the HTTPS subscription of the receipts route. */
  private receipts(api: HttpApi): Topic {
    const stack = Stack.of(this);
    const key = new Key(this, 'ReceiptsKey', {
      description: 'Encrypts the delivery receipts topic (SES and End User Messaging events)',
      enableKeyRotation: true,
      pendingWindow: Duration.days(7),
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Publishing to an encrypted topic: the publishing services need the key, for this account's messages only.
    key.addToResourcePolicy(
      new PolicyStatement({
        actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
        resources: ['*'],
        principals: [new ServicePrincipal('ses.amazonaws.com'), new ServicePrincipal('sms-voice.amazonaws.com')],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );
    const topic = new Topic(this, 'ReceiptsTopic', {
      displayName: 'On-call delivery receipts',
      masterKey: key,
      enforceSSL: true,
    });
    new Subscription(this, 'ReceiptsSubscription', {
      topic,
      protocol: SubscriptionProtocol.HTTPS,
      endpoint: `${api.apiEndpoint}/public/delivery/sns`,
    });
    return topic;
  }
}
