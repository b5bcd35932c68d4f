// The CDK app: one stack, checked by cdk-nag's AwsSolutions rules at synth time.
import { App } from 'aws-cdk-lib';
import { addNagChecks } from './checks';
import { OncallStack } from './stack';

const app = new App();
new OncallStack(app, app.node.tryGetContext('stackName') ?? 'Oncall', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  functionEnvironment: process.env.SIGNUP_ENABLED ? { SIGNUP_ENABLED: process.env.SIGNUP_ENABLED } : undefined,
});
addNagChecks(app);
app.synth();
