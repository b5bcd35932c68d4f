// Request limits in front of the functions (README "Deploying", request limits), each optional by
// `cdk deploy -c …` context; the functions' own limits per credential and account
// (lib/auth/request-limits.ts) apply whatever is chosen here.
//   apiThrottleRateLimit, apiThrottleBurstLimit  the API stage's default route throttling: steady
//        requests a second and the burst, for the whole API (default 1 000 and 2 000); `apiThrottle=off`
//        leaves the stage unthrottled (the account's API Gateway quota still applies)
//   wafRateLimit      a WAF web ACL on the CloudFront distribution (the console's and the API's one
//                     origin) with a rate-based rule: requests a minute from one address (10 to
//                     2 000 000 000) beyond which that address is refused with 429. A web ACL for
//                     CloudFront must be made in us-east-1: a stack elsewhere gives wafWebAclArn
//   wafWebAclArn      an existing web ACL (scope CLOUDFRONT) to attach to the distribution instead
// WAF cannot be attached to an API Gateway HTTP API; requests that go to the API's own
// execute-api address instead of the distribution meet the stage throttling and the functions' limits.
import { Stack, Token } from 'aws-cdk-lib';
import type { CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct, type Node } from 'constructs';
import { contextStrings } from '../context';

export interface EdgeLimitsConfig {
  /** The stage's default route throttling; null: none. */
  stageThrottle: { rateLimit: number; burstLimit: number } | null;
  /** A new web ACL with a rate rule (requests a minute per address), an existing one, or none. */
  waf: { ratePerMinute: number } | { webAclArn: string } | null;
}

export const DEFAULT_STAGE_THROTTLE = { rateLimit: 1000, burstLimit: 2000 };

const CONTEXT_KEYS = ['apiThrottle', 'apiThrottleRateLimit', 'apiThrottleBurstLimit', 'wafRateLimit', 'wafWebAclArn'] as const;
const WEB_ACL_ARN = /^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[\w-]+$/;

function wholeNumber(key: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new Error(`Request limits: ${key} must be a whole number from ${min} to ${max} (got ${value})`);
  }
  return number;
}

/** The settings from `cdk deploy -c …`, checked: a malformed one stops the synth naming its key. */
export function edgeLimitsFromContext(node: Node): EdgeLimitsConfig {
  const context = contextStrings(node, CONTEXT_KEYS);
  if (context.apiThrottle !== undefined && !['on', 'off'].includes(context.apiThrottle)) {
    throw new Error(`Request limits: apiThrottle must be on or off (got ${context.apiThrottle})`);
  }
  const rateLimit = wholeNumber('apiThrottleRateLimit', context.apiThrottleRateLimit, 1, 1_000_000);
  const burstLimit = wholeNumber('apiThrottleBurstLimit', context.apiThrottleBurstLimit, 1, 1_000_000);
  const off = context.apiThrottle === 'off';
  if (off && (rateLimit !== undefined || burstLimit !== undefined)) {
    throw new Error('Request limits: apiThrottle=off leaves nothing for apiThrottleRateLimit and apiThrottleBurstLimit to set');
  }
  const ratePerMinute = wholeNumber('wafRateLimit', context.wafRateLimit, 10, 2_000_000_000);
  if (ratePerMinute !== undefined && context.wafWebAclArn !== undefined) {
    throw new Error('Request limits: give wafRateLimit (a new web ACL) or wafWebAclArn (an existing one), not both');
  }
  if (context.wafWebAclArn !== undefined && !WEB_ACL_ARN.test(context.wafWebAclArn)) {
    throw new Error(
      'Request limits: wafWebAclArn must be the ARN of a CloudFront web ACL (arn:aws:wafv2:us-east-1:<account>:global/webacl/…)',
    );
  }
  return {
    stageThrottle: off
      ? null
      : { rateLimit: rateLimit ?? DEFAULT_STAGE_THROTTLE.rateLimit, burstLimit: burstLimit ?? DEFAULT_STAGE_THROTTLE.burstLimit },
    waf: ratePerMinute !== undefined ? { ratePerMinute } : context.wafWebAclArn !== undefined ? { webAclArn: context.wafWebAclArn } : null,
  };
}

export interface EdgeLimitsProps {
  config: EdgeLimitsConfig;
  stage: CfnStage;
  distribution: Distribution;
}

export class EdgeLimits extends Construct {
  /** The web ACL this construct made (wafRateLimit), if any. */
  readonly webAcl?: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeLimitsProps) {
    super(scope, id);
    const { config } = props;
    if (config.stageThrottle) {
      props.stage.defaultRouteSettings = {
        throttlingRateLimit: config.stageThrottle.rateLimit,
        throttlingBurstLimit: config.stageThrottle.burstLimit,
      };
    }
    if (!config.waf) return;
    if ('webAclArn' in config.waf) {
      props.distribution.attachWebAclId(config.waf.webAclArn);
      return;
    }
    const region = Stack.of(this).region;
    if (!Token.isUnresolved(region) && region !== 'us-east-1') {
      throw new Error(
        `Request limits: a web ACL for CloudFront must be made in us-east-1, and this stack is in ${region}: ` +
          'make one there (a rate-based rule per IP address) and give its ARN as wafWebAclArn',
      );
    }
    const metric = (name: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: name });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'On-call service: requests a minute per source address',
      defaultAction: { allow: {} },
      visibilityConfig: metric('oncall-edge'),
      rules: [
        {
          name: 'requests-per-address',
          priority: 0,
          action: { block: { customResponse: { responseCode: 429 } } },
          statement: {
            rateBasedStatement: { limit: config.waf.ratePerMinute, evaluationWindowSec: 60, aggregateKeyType: 'IP' },
          },
          visibilityConfig: metric('oncall-requests-per-address'),
        },
      ],
    });
    props.distribution.attachWebAclId(this.webAcl.attrArn);
  }
}
