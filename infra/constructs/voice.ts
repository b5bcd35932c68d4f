// Calls you can answer and live call routing (issue 24; README "Voice you can answer"), deployed with
// `-c voiceProvider=chime` and a number (`-c voicePhoneNumber=+1…`, one the account owns in the Chime
// SDK) or an area code to order one in (`-c voiceAreaCode=206`). CloudFormation has no type for the
// Chime SDK's voice resources: a small provider function (infra/chime-resources/handler.ts) creates
// the SIP media application, the number and the SIP rule sending the number's calls to it. Without the
// flag nothing here is created (the default stack stays as it is).
//
// Least privilege: the SIP media application alone may invoke its function (this account's); that
// function gets the table, the three queues an alert's change needs, and reading its voicemails (to
// sign their links); the notifying functions may place calls through this application only; only the
// Chime SDK's voice connector of this account may write recordings, under voicemail/.
import { CfnOutput, CustomResource, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct, type Node } from 'constructs';
import { contextStrings } from '../context';
import { CHIME_RESOURCES_FUNCTION, SIP_MEDIA_FUNCTION, type FunctionName, type QueueName } from '../functions';
import { ServiceFunction } from './service-function';

export interface VoiceConfig {
  /** `chime`: calls through the Amazon Chime SDK PSTN audio service; absent: voice stays End User Messaging's. */
  voiceProvider?: string;
  /** A number the account owns in the Chime SDK (E.164), for the calls out and the live calls in. */
  voicePhoneNumber?: string;
  /** Or a US area code: the stack orders a number there (and releases it with the stack). */
  voiceAreaCode?: string;
}

const CONTEXT_KEYS: (keyof VoiceConfig)[] = ['voiceProvider', 'voicePhoneNumber', 'voiceAreaCode'];

export function voiceFromContext(node: Node): VoiceConfig {
  return contextStrings(node, CONTEXT_KEYS);
}

export function checkVoice(config: VoiceConfig): void {
  const problems: string[] = [];
  const chime = config.voiceProvider === 'chime';
  if (config.voiceProvider && !chime) problems.push(`voiceProvider must be chime (got ${config.voiceProvider})`);
  if (!config.voiceProvider && (config.voicePhoneNumber || config.voiceAreaCode))
    problems.push('voicePhoneNumber and voiceAreaCode need voiceProvider=chime');
  if (chime && !config.voicePhoneNumber === !config.voiceAreaCode)
    problems.push('voiceProvider=chime needs one of voicePhoneNumber (a number you own) or voiceAreaCode (one is ordered)');
  if (config.voicePhoneNumber && !/^\+[1-9]\d{6,14}$/.test(config.voicePhoneNumber))
    problems.push('voicePhoneNumber must be an E.164 number (+12065550100)');
  if (config.voiceAreaCode && !/^[2-9]\d{2}$/.test(config.voiceAreaCode)) problems.push('voiceAreaCode must be a US area code (206)');
  if (problems.length > 0) throw new Error(`Voice configuration: ${problems.join('; ')}`);
}

/** Where recordings go in the bucket (the bucket policy and the function's read grant name it). */
export const VOICEMAIL_PREFIX = 'voicemail/';

export interface VoiceProps {
  config: VoiceConfig;
  projectRoot: string;
  table: ITable;
  queues: Record<QueueName, Queue>;
  functions: Record<FunctionName, ServiceFunction>;
  notifying: readonly FunctionName[];
  environment: Record<string, string>;
}

export class Voice extends Construct {
  constructor(scope: Construct, id: string, props: VoiceProps) {
    super(scope, id);
    const { config } = props;
    checkVoice(config);
    if (config.voiceProvider !== 'chime') return;
    const stack = Stack.of(this);
    const smaArn = (id: string) => stack.formatArn({ service: 'chime', resource: 'sma', resourceName: id });

    const voicemail = new Bucket(this, 'Voicemail', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      // A voicemail's link is valid 7 days; the recording is kept a little longer, then goes.
      lifecycleRules: [{ expiration: Duration.days(30) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(voicemail).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Voicemails are written by the Chime SDK and read through signed links from alerts; CloudTrail data events are the audit if one is needed, server access logs would need a second bucket.',
    });
    voicemail.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('voiceconnector.chime.amazonaws.com')],
        actions: ['s3:PutObject', 's3:PutObjectAcl'],
        resources: [voicemail.arnForObjects(`${VOICEMAIL_PREFIX}*`)],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account }, ArnLike: { 'aws:SourceArn': smaArn('*') } },
      }),
    );

    const sipMedia = new ServiceFunction(this, 'SipMediaFunction', {
      definition: SIP_MEDIA_FUNCTION,
      projectRoot: props.projectRoot,
      environment: { ...props.environment, VOICEMAIL_BUCKET: voicemail.bucketName },
    });
    sipMedia.bind({ table: props.table, queues: props.queues });
    sipMedia.fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['s3:GetObject'],
        resources: [voicemail.arnForObjects(`${VOICEMAIL_PREFIX}*`)],
      }),
    );
    Validations.of(sipMedia.fn.role!).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(voicemail.node.defaultChild as CfnBucket)}.Arn>/${VOICEMAIL_PREFIX}*]`,
      reason: 'It signs links to the voicemails it is told of, whose keys the Chime SDK picks under voicemail/: reading that prefix only.',
    });
    // Voicemail links (/public/voicemail/<token>) are opened through the voicemail function, which signs
    // a short S3 link each time: a link signed once would die with the credentials that signed it.
    const opener = props.functions.voicemail;
    opener.fn.addEnvironment('VOICEMAIL_BUCKET', voicemail.bucketName);
    opener.fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['s3:GetObject'],
        resources: [voicemail.arnForObjects(`${VOICEMAIL_PREFIX}*`)],
      }),
    );
    Validations.of(opener.fn.role!).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(voicemail.node.defaultChild as CfnBucket)}.Arn>/${VOICEMAIL_PREFIX}*]`,
      reason: 'It opens the voicemail a signed link names, whose keys the Chime SDK picks under voicemail/: reading that prefix only.',
    });
    sipMedia.fn.addPermission('ChimeInvoke', {
      principal: new ServicePrincipal('voiceconnector.chime.amazonaws.com'),
      sourceAccount: stack.account,
    });

    const provider = new ServiceFunction(this, 'ChimeResourcesFunction', {
      definition: CHIME_RESOURCES_FUNCTION,
      projectRoot: props.projectRoot,
    });
    provider.fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: [
          'chime:CreateSipMediaApplication',
          'chime:UpdateSipMediaApplication',
          'chime:DeleteSipMediaApplication',
          'chime:CreateSipRule',
          'chime:UpdateSipRule',
          'chime:DeleteSipRule',
          'chime:SearchAvailablePhoneNumbers',
          'chime:CreatePhoneNumberOrder',
          'chime:GetPhoneNumberOrder',
          'chime:DeletePhoneNumber',
        ],
        resources: ['*'],
      }),
    );
    Validations.of(provider.fn.role!).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'The Chime SDK voice actions that create SIP media applications, SIP rules and phone number orders take no resource ARN: the resources do not exist before the call.',
    });

    const resource = (name: string, kind: string, properties: Record<string, string>) =>
      new CustomResource(this, name, {
        serviceToken: provider.fn.functionArn,
        resourceType: `Custom::Chime${kind}`,
        properties: { Kind: kind, ...properties },
      });
    const application = resource('SipMediaApplication', 'SipMediaApplication', {
      Name: `${stack.stackName}-calls`.slice(0, 256),
      LambdaArn: sipMedia.fn.functionArn,
    });
    // The application checks on creation that it may invoke its function.
    application.node.addDependency(sipMedia.fn.node.findChild('ChimeInvoke'));
    const number = resource(
      'PhoneNumber',
      'PhoneNumber',
      config.voicePhoneNumber ? { PhoneNumber: config.voicePhoneNumber } : { AreaCode: config.voiceAreaCode! },
    );
    const applicationId = application.getAttString('SipMediaApplicationId');
    const phoneNumber = number.getAttString('PhoneNumber');
    resource('SipRule', 'SipRule', {
      Name: `${stack.stackName}-inbound`.slice(0, 256),
      PhoneNumber: phoneNumber,
      SipMediaApplicationId: applicationId,
    });

    for (const name of props.notifying) {
      const fn = props.functions[name].fn;
      fn.addEnvironment('VOICE_SIP_MEDIA_APPLICATION_ID', applicationId);
      fn.addEnvironment('VOICE_FROM_NUMBER', phoneNumber);
      fn.addToRolePolicy(
        new PolicyStatement({ effect: Effect.ALLOW, actions: ['chime:CreateSipMediaApplicationCall'], resources: [smaArn(applicationId)] }),
      );
    }
    new CfnOutput(this, 'VoicePhoneNumber', {
      value: phoneNumber,
      description: 'Pages by voice call from this number; a live_call integration answers calls to it',
    });
  }
}
