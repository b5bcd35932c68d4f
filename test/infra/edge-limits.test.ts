// The request limits in front of the functions (infra/constructs/edge-limits.ts), by `cdk deploy -c …`
// context, on the synthesized template: the API stage's default route throttling (default, chosen, off)
// and the WAF web ACL with its rate rule attached to the distribution (made in us-east-1, or an
// existing one given by ARN), with cdk-nag finding nothing unacknowledged; malformed settings stop the synth.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { addNagChecks } from '../../infra/checks';
import { edgeLimitsFromContext } from '../../infra/constructs/edge-limits';
import { OncallStack } from '../../infra/stack';

const outdirs: string[] = [];
afterAll(() => outdirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The stack synthesized with this context (bundling skipped, as in stack.test.ts), cdk-nag run on it. */
function synth(settings: Record<string, string>, region?: string): { template: Template; nagReports: unknown[] } {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cdk-edge-'));
  outdirs.push(outdir);
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...settings }, outdir });
  const stack = new OncallStack(app, 'Edge', region ? { env: { account: '123456789012', region } } : {});
  addNagChecks(app);
  const assembly = app.synth();
  const report = JSON.parse(readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8')) as { pluginReports: unknown[] };
  return { template: Template.fromStack(stack), nagReports: report.pluginReports };
}

const ACL_ARN = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/oncall-edge/0123abcd-4567-89ef-0123-456789abcdef';

describe('the API stage', () => {
  // The first synth of a process builds the console (web/build.ts): minutes on a loaded machine.
  it('throttles every route at 1 000 a second with bursts of 2 000 unless told otherwise, and has no web ACL', { timeout: 180_000 }, () => {
    const { template, nagReports } = synth({});
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 },
    });
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ WebACLId: Match.absent() }),
    });
    expect(nagReports).toEqual([]);
  });

  it('takes the rate and burst from context, or no throttling at all', () => {
    synth({ apiThrottleRateLimit: '250', apiThrottleBurstLimit: '500' }).template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 250, ThrottlingBurstLimit: 500 },
    });
    synth({ apiThrottle: 'off' }).template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: Match.absent(),
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
  });
});

describe('the WAF web ACL', () => {
  it('wafRateLimit makes a CloudFront web ACL in us-east-1 whose rule refuses an address beyond it a minute, on the distribution', () => {
    const { template, nagReports } = synth({ wafRateLimit: '3000' }, 'us-east-1');
    template.resourceCountIs('AWS::WAFv2::WebACL', 1);
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: [
        Match.objectLike({
          Name: 'requests-per-address',
          Action: { Block: { CustomResponse: { ResponseCode: 429 } } },
          Statement: { RateBasedStatement: { Limit: 3000, EvaluationWindowSec: 60, AggregateKeyType: 'IP' } },
        }),
      ],
    });
    const [aclId] = Object.keys(template.findResources('AWS::WAFv2::WebACL'));
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ WebACLId: { 'Fn::GetAtt': [aclId, 'Arn'] } }),
    });
    expect(nagReports).toEqual([]);
  });

  it('wafWebAclArn attaches an existing web ACL and makes none', () => {
    const { template } = synth({ wafWebAclArn: ACL_ARN }, 'eu-west-1');
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ WebACLId: ACL_ARN }),
    });
  });

  it('refuses to make a CloudFront web ACL outside us-east-1, pointing at wafWebAclArn', () => {
    expect(() => synth({ wafRateLimit: '3000' }, 'eu-west-1')).toThrow(
      /must be made in us-east-1, and this stack is in eu-west-1.*wafWebAclArn/,
    );
  });
});

describe('malformed settings', () => {
  it('stop the synth naming the key', () => {
    const check = (settings: Record<string, string>) => () => edgeLimitsFromContext(new App({ context: settings }).node);
    expect(check({ apiThrottleRateLimit: '0' })).toThrow(/apiThrottleRateLimit must be a whole number from 1 to 1000000/);
    expect(check({ apiThrottleBurstLimit: 'many' })).toThrow(/apiThrottleBurstLimit must be a whole number/);
    expect(check({ apiThrottle: 'maybe' })).toThrow(/apiThrottle must be on or off/);
    expect(check({ apiThrottle: 'off', apiThrottleRateLimit: '5' })).toThrow(/apiThrottle=off leaves nothing/);
    expect(check({ wafRateLimit: '9' })).toThrow(/wafRateLimit must be a whole number from 10 to 2000000000/);
    expect(check({ wafRateLimit: '100', wafWebAclArn: ACL_ARN })).toThrow(/not both/);
    expect(check({ wafWebAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/x/y' })).toThrow(/ARN of a CloudFront web ACL/);
    expect(edgeLimitsFromContext(new App({ context: { apiThrottle: 'on', wafRateLimit: '100' } }).node)).toEqual({
      stageThrottle: { rateLimit: 1000, burstLimit: 2000 },
      waf: { ratePerMinute: 100 },
    });
  });
});
