// The CDK app: one stack, with cdk-nag's AwsSolutions checks run at synth time.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { acknowledgeFindings } from './nag';
import { OncallStack } from './stack';

const app = new App();
const stack = new OncallStack(app, app.node.tryGetContext('stackName') ?? 'Oncall', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  functionEnvironment: process.env.SIGNUP_ENABLED ? { SIGNUP_ENABLED: process.env.SIGNUP_ENABLED } : undefined,
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
acknowledgeFindings(stack);
app.synth();
