// cdk-nag's AwsSolutions rules run on every synth; a finding that is not acknowledged (with its
// reason, next to the construct it concerns) fails the synth.
import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

export function addNagChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}
