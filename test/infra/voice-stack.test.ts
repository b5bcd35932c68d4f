// The stack with calls you can answer (`-c voiceProvider=chime`, infra/constructs/voice.ts): the SIP
// media application, the phone number and the SIP rule as custom resources of the stack's own
// provider function, the SIP media function only the Chime SDK of this account may invoke, the
// voicemail bucket only its voice connector may write to, and each grant as narrow as the action
// allows; cdk-nag clean. Without the flag nothing of it exists.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addNagChecks } from '../../infra/checks';
import { FUNCTIONS, SIP_MEDIA_FUNCTION } from '../../infra/functions';
import { OncallStack } from '../../infra/stack';

const context = { 'aws:cdk:bundling-stacks': [] };
const env = { account: '123456789012', region: 'us-east-1' };
const outdirs: string[] = [];
const outdir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cdk-voice-'));
  outdirs.push(dir);
  return dir;
};
afterAll(() => outdirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

let plain: Template;
let ordered: Template;
let owned: Template;
beforeAll(() => {
  plain = Template.fromStack(new OncallStack(new App({ context, outdir: outdir() }), 'Plain', { env }));
  ordered = Template.fromStack(
    new OncallStack(new App({ context, outdir: outdir() }), 'Ordered', { env, voice: { voiceProvider: 'chime', voiceAreaCode: '206' } }),
  );
  owned = Template.fromStack(
    new OncallStack(new App({ context, outdir: outdir() }), 'Owned', {
      env,
      voice: { voiceProvider: 'chime', voicePhoneNumber: '+12065550100' },
    }),
  );
});

const idOf = (tpl: Template, type: string, prefix: string) => {
  const ids = Object.keys(tpl.findResources(type)).filter((id) => id.startsWith(prefix));
  expect(ids, `${type} ${prefix}`).toHaveLength(1);
  return ids[0];
};
const sipFunction = (tpl: Template) => idOf(tpl, 'AWS::Lambda::Function', 'VoiceSipMediaFunction');
const providerFunction = (tpl: Template) => idOf(tpl, 'AWS::Lambda::Function', 'VoiceChimeResourcesFunction');
const customOf = (tpl: Template, kind: string) => Object.values(tpl.findResources(`Custom::Chime${kind}`));

/** The statements of the role a function (by logical id prefix) runs as. */
function statementsOf(tpl: Template, functionPrefix: string): { Action: string | string[]; Resource: unknown; Effect: string }[] {
  const role = Object.keys(tpl.findResources('AWS::IAM::Role')).find(
    (id) => id.startsWith(`${functionPrefix}Role`) || id.startsWith(`${functionPrefix}FunctionRole`),
  );
  expect(role, functionPrefix).toBeDefined();
  return Object.values(tpl.findResources('AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}
const actions = (statements: { Action: string | string[] }[]) => statements.flatMap((s) => [s.Action].flat());
const pascal = (name: string) => `${name[0].toUpperCase()}${name.slice(1)}`;

describe('calls you can answer in the stack (-c voiceProvider=chime)', () => {
  it('creates nothing without the flag: no function, bucket, custom resource or Chime grant more', () => {
    // The voice construct's resources (the voicemail function, which opens links, is every stack's).
    expect(Object.keys(plain.toJSON().Resources).filter((id) => id.startsWith('Voice') && !id.startsWith('VoicemailFunction'))).toEqual([]);
    for (const name of Object.keys(FUNCTIONS))
      expect(
        actions(statementsOf(plain, `${pascal(name)}Function`)).filter((a) => a.startsWith('chime:')),
        name,
      ).toEqual([]);
    expect(Object.keys(ordered.toJSON().Resources).length - Object.keys(plain.toJSON().Resources).length).toBe(14);
  });

  it('creates the SIP media application on its function, the ordered number, and the rule sending the number to the application', () => {
    const [application] = customOf(ordered, 'SipMediaApplication');
    expect(application.Properties).toMatchObject({
      Kind: 'SipMediaApplication',
      LambdaArn: { 'Fn::GetAtt': [sipFunction(ordered), 'Arn'] },
    });
    expect(application.Properties.ServiceToken).toEqual({ 'Fn::GetAtt': [providerFunction(ordered), 'Arn'] });
    const applicationId = idOf(ordered, 'Custom::ChimeSipMediaApplication', 'VoiceSipMediaApplication');
    const numberId = idOf(ordered, 'Custom::ChimePhoneNumber', 'VoicePhoneNumber');
    expect(customOf(ordered, 'PhoneNumber')[0].Properties).toMatchObject({ Kind: 'PhoneNumber', AreaCode: '206' });
    expect(customOf(owned, 'PhoneNumber')[0].Properties).toMatchObject({ Kind: 'PhoneNumber', PhoneNumber: '+12065550100' });
    expect(customOf(ordered, 'SipRule')[0].Properties).toMatchObject({
      Kind: 'SipRule',
      PhoneNumber: { 'Fn::GetAtt': [numberId, 'PhoneNumber'] },
      SipMediaApplicationId: { 'Fn::GetAtt': [applicationId, 'SipMediaApplicationId'] },
    });
    // The application is created once Chime may invoke the function.
    const permission = idOf(ordered, 'AWS::Lambda::Permission', 'VoiceSipMediaFunctionFnChimeInvoke');
    expect(ordered.toJSON().Resources[applicationId].DependsOn).toContain(permission);
    ordered.hasOutput('*', { Value: { 'Fn::GetAtt': [numberId, 'PhoneNumber'] } });
  });

  it('lets only the Chime SDK voice connector of this account invoke the SIP media function', () => {
    ordered.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [sipFunction(ordered), 'Arn'] },
      Principal: 'voiceconnector.chime.amazonaws.com',
      SourceAccount: '123456789012',
    });
  });

  it('gives the SIP media function the table, its three queues, reading voicemails to sign their links, and a short timeout', () => {
    const fn = ordered.toJSON().Resources[sipFunction(ordered)].Properties;
    expect(fn.Timeout).toBe(SIP_MEDIA_FUNCTION.timeoutSeconds);
    expect(fn.Environment.Variables).toMatchObject({ VOICEMAIL_BUCKET: { Ref: idOf(ordered, 'AWS::S3::Bucket', 'VoiceVoicemail') } });
    const granted = actions(statementsOf(ordered, 'VoiceSipMediaFunction'));
    expect(granted.filter((a) => !a.startsWith('dynamodb:') && !a.startsWith('logs:')).sort()).toEqual([
      's3:GetObject',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:GetQueueUrl',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
      'sqs:SendMessage',
      'sqs:SendMessage',
    ]);
    expect(granted).not.toContain('dynamodb:Scan');
  });

  it('lets the voicemail function open voicemail links: the bucket named, reading under voicemail/ only', () => {
    const opener = idOf(ordered, 'AWS::Lambda::Function', 'VoicemailFunction');
    const fn = ordered.toJSON().Resources[opener].Properties;
    expect(fn.Environment.Variables).toMatchObject({ VOICEMAIL_BUCKET: { Ref: idOf(ordered, 'AWS::S3::Bucket', 'VoiceVoicemail') } });
    const reads = statementsOf(ordered, 'VoicemailFunction').filter((statement) => actions([statement]).includes('s3:GetObject'));
    expect(reads).toHaveLength(1);
    expect(JSON.stringify(reads[0].Resource)).toContain('/voicemail/*');
    // Without the flag, no bucket and nothing to read; the one-click responses never read the bucket.
    expect(actions(statementsOf(plain, 'VoicemailFunction'))).not.toContain('s3:GetObject');
    expect(actions(statementsOf(ordered, 'RespondFunction'))).not.toContain('s3:GetObject');
    expect(
      ordered.toJSON().Resources[idOf(ordered, 'AWS::Lambda::Function', 'RespondFunction')].Properties.Environment.Variables,
    ).not.toHaveProperty('VOICEMAIL_BUCKET');
  });

  it('lets each notifying function place calls through this application only, with its id and number', () => {
    const applicationId = idOf(ordered, 'Custom::ChimeSipMediaApplication', 'VoiceSipMediaApplication');
    const functions = ordered.findResources('AWS::Lambda::Function');
    for (const [name, definition] of Object.entries(FUNCTIONS)) {
      const chime = statementsOf(ordered, `${pascal(name)}Function`).filter((s) => actions([s]).some((a) => a.startsWith('chime:')));
      const variables = Object.entries(functions).find(([id]) => id.startsWith(`${pascal(name)}Function`))![1].Properties.Environment
        .Variables;
      if (!definition.notifies) {
        expect(chime, name).toEqual([]);
        expect(variables.VOICE_SIP_MEDIA_APPLICATION_ID, name).toBeUndefined();
        continue;
      }
      expect(chime, name).toHaveLength(1);
      expect(chime[0].Action).toBe('chime:CreateSipMediaApplicationCall');
      expect(JSON.stringify(chime[0].Resource)).toContain(`:sma/`);
      expect(JSON.stringify(chime[0].Resource)).toContain(applicationId);
      expect(variables.VOICE_SIP_MEDIA_APPLICATION_ID, name).toEqual({ 'Fn::GetAtt': [applicationId, 'SipMediaApplicationId'] });
      expect(variables.VOICE_FROM_NUMBER, name).toBeDefined();
    }
  });

  it('keeps voicemails private, encrypted and SSL-only, written only by this account’s Chime SDK under voicemail/, for 30 days', () => {
    const bucket = idOf(ordered, 'AWS::S3::Bucket', 'VoiceVoicemail');
    ordered.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 30, Status: 'Enabled' })] },
      }),
    });
    const statements = Object.values(ordered.findResources('AWS::S3::BucketPolicy')).find((p) => p.Properties.Bucket.Ref === bucket)!
      .Properties.PolicyDocument.Statement as {
      Effect: string;
      Principal?: { Service?: string };
      Action: unknown;
      Condition?: unknown;
      Resource: unknown;
    }[];
    expect(statements.find((s) => s.Effect === 'Deny')?.Condition).toEqual({ Bool: { 'aws:SecureTransport': 'false' } });
    const allowed = statements.filter((s) => s.Effect === 'Allow');
    expect(allowed).toHaveLength(1);
    expect(allowed[0]).toMatchObject({
      Principal: { Service: 'voiceconnector.chime.amazonaws.com' },
      Action: ['s3:PutObject', 's3:PutObjectAcl'],
      Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
    });
    expect(JSON.stringify(allowed[0].Resource)).toContain('/voicemail/*');
  });

  it('gives the provider function the Chime SDK voice actions that create and remove these resources, nothing else', () => {
    const granted = actions(statementsOf(ordered, 'VoiceChimeResourcesFunction')).filter((a) => !a.startsWith('logs:'));
    expect(
      granted.every((a) => a.startsWith('chime:')),
      granted.join(),
    ).toBe(true);
    expect(granted).not.toContain('chime:CreateSipMediaApplicationCall');
    expect(granted).toEqual(
      expect.arrayContaining([
        'chime:CreateSipMediaApplication',
        'chime:CreateSipRule',
        'chime:CreatePhoneNumberOrder',
        'chime:DeletePhoneNumber',
      ]),
    );
  });

  it('passes cdk-nag', () => {
    const app = new App({ context, outdir: outdir() });
    new OncallStack(app, 'NagVoice', { env, voice: { voiceProvider: 'chime', voiceAreaCode: '206' } });
    addNagChecks(app);
    const report = JSON.parse(readFileSync(path.join(app.synth().directory, 'validation-report.json'), 'utf8'));
    expect(report.pluginReports).toEqual([]);
  });

  it('refuses a configuration it cannot deploy', () => {
    const attempt = (voice: Record<string, string>) => () => new OncallStack(new App({ context, outdir: outdir() }), 'Bad', { env, voice });
    expect(attempt({ voiceProvider: 'twilio' })).toThrow(/voiceProvider must be chime/);
    expect(attempt({ voiceProvider: 'chime' })).toThrow(/needs one of voicePhoneNumber/);
    expect(attempt({ voiceProvider: 'chime', voicePhoneNumber: '+12065550100', voiceAreaCode: '206' })).toThrow(/needs one of/);
    expect(attempt({ voiceProvider: 'chime', voicePhoneNumber: '2065550100' })).toThrow(/E\.164/);
    expect(attempt({ voiceProvider: 'chime', voiceAreaCode: '06' })).toThrow(/area code/);
    expect(attempt({ voiceAreaCode: '206' })).toThrow(/need voiceProvider=chime/);
  });

  it('reads the settings from `cdk deploy -c`', () => {
    const app = new App({ context: { ...context, voiceProvider: 'chime', voiceAreaCode: '206' }, outdir: outdir() });
    const tpl = Template.fromStack(new OncallStack(app, 'FromContext', { env }));
    expect(customOf(tpl, 'PhoneNumber')[0].Properties).toMatchObject({ AreaCode: '206' });
  });
});
