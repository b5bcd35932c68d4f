// The CDK app: one stack, checked by cdk-nag's AwsSolutions rules at synth time.
import { App } from 'aws-cdk-lib';
import { addNagChecks } from './checks';
import { contextStrings } from './context';
import { OncallStack } from './stack';

// Settings an operator may give `cdk deploy` through its environment; the functions validate them.
const FORWARDED = [
  'SIGNUP_ENABLED',
  'API_RATE_LIMIT_PER_MINUTE',
  'API_RATE_LIMIT_BURST',
  'ACCOUNT_RATE_LIMIT_PER_MINUTE',
  'INGEST_RATE_LIMIT_BURST',
  'INGEST_RATE_LIMIT_PER_MINUTE',
  'PUBLIC_BASE_URL',
  'SNS_SIGNATURE_REQUIRED',
  'VOICE_ID',
];
const forwarded = Object.fromEntries(FORWARDED.filter((name) => process.env[name]).map((name) => [name, process.env[name]!]));

const app = new App();
const context = contextStrings(app.node, ['stackName', 'alarmEmail']);
new OncallStack(app, context.stackName ?? 'Oncall', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  functionEnvironment: Object.keys(forwarded).length > 0 ? forwarded : undefined,
  alarmEmail: context.alarmEmail,
});
addNagChecks(app);
app.synth();
