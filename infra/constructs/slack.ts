// Slack (docs/api.md#slack; README "Slack"): the key that seals secrets stored in the table (each
// workspace's bot token and signing secret, each account's single sign-on client secret) lives apart from the table, in a Secrets Manager secret
// the stack generates, handed to the functions that open them as SECRETS_KEY; and, when the
// deployment has a Slack app of its own ("Add to Slack"), its client id (`-c slackClientId=…`) and
// its client secret and signing secret, read from a Secrets Manager secret the operator created
// (`-c slackAppSecretName=…`, JSON `{"client_secret": "…", "signing_secret": "…"}`). Secrets reach
// the functions as CloudFormation dynamic references: the template never holds them, and the
// functions need no permission on Secrets Manager. `-c slackApiUrl=…` points the Web API elsewhere.
import { RemovalPolicy, SecretValue, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct, type Node } from 'constructs';
import { contextStrings } from '../context';
import type { FunctionName } from '../functions';
import type { ServiceFunction } from './service-function';

export interface SlackConfig {
  /** The Web API's base (default https://slack.com/api/). */
  slackApiUrl?: string;
  /** "Add to Slack": the app's client id, and the name of the secret holding its client and signing secrets. */
  slackClientId?: string;
  slackAppSecretName?: string;
}

const CONTEXT_KEYS: (keyof SlackConfig)[] = ['slackApiUrl', 'slackClientId', 'slackAppSecretName'];

export function slackFromContext(node: Node): SlackConfig {
  return contextStrings(node, CONTEXT_KEYS);
}

export function checkSlack(config: SlackConfig): void {
  const problems: string[] = [];
  if (Boolean(config.slackClientId) !== Boolean(config.slackAppSecretName))
    problems.push('slackClientId and slackAppSecretName go together (the app needs its client and signing secrets)');
  if (config.slackApiUrl && !/^https?:\/\/[^\s]+$/.test(config.slackApiUrl)) problems.push('slackApiUrl must be an http(s) URL');
  if (config.slackAppSecretName && !/^[\w/+=.@-]{1,512}$/.test(config.slackAppSecretName))
    problems.push('slackAppSecretName must be a Secrets Manager secret name or ARN');
  if (problems.length > 0) throw new Error(`Slack configuration: ${problems.join('; ')}`);
}

export interface SlackProps {
  config: SlackConfig;
  functions: Record<FunctionName, ServiceFunction>;
  /** The functions that talk to Slack (the catalogue's `slack` flag): the Slack settings. */
  slackFunctions: readonly FunctionName[];
  /** The functions that open sealed secrets (the catalogue's `opensSealedSecrets` flag): SECRETS_KEY. */
  sealingFunctions: readonly FunctionName[];
}

export class SlackIntegration extends Construct {
  readonly secretsKey: Secret;

  constructor(scope: Construct, id: string, props: SlackProps) {
    super(scope, id);
    const { config } = props;
    checkSlack(config);
    this.secretsKey = new Secret(this, 'SecretsKey', {
      description:
        'Seals the secrets the on-call service keeps in its table (SECRETS_KEY): Slack bot tokens and signing secrets, single sign-on client secrets',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      // Without it the sealed secrets cannot be opened (each workspace would be connected again).
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.secretsKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The key seals secrets stored in the table; a rotated key could not open them. It is replaced by hand (then every Slack workspace is connected again), never automatically.',
    });
    for (const name of props.sealingFunctions)
      props.functions[name].fn.addEnvironment('SECRETS_KEY', this.secretsKey.secretValue.unsafeUnwrap());
    const environment: Record<string, string> = {};
    if (config.slackApiUrl) environment.SLACK_API_URL = config.slackApiUrl;
    if (config.slackClientId && config.slackAppSecretName) {
      environment.SLACK_CLIENT_ID = config.slackClientId;
      environment.SLACK_CLIENT_SECRET = SecretValue.secretsManager(config.slackAppSecretName, {
        jsonField: 'client_secret',
      }).unsafeUnwrap();
      environment.SLACK_SIGNING_SECRET = SecretValue.secretsManager(config.slackAppSecretName, {
        jsonField: 'signing_secret',
      }).unsafeUnwrap();
    }
    for (const name of props.slackFunctions) {
      for (const [key, value] of Object.entries(environment)) props.functions[name].fn.addEnvironment(key, value);
    }
  }
}
