// The web console, deployed: the built files in a private S3 bucket (SSL only, read by CloudFront
// through Origin Access Control), and one CloudFront distribution that is the service's single
// URL — the console's page and assets from S3, and every API path of both interfaces
// (infra/console.ts) passed unchanged to the HTTP API: all methods, every header except Host
// (Authorization, x-api-key, x-api-secret, pagertree-token, …), query strings and bodies, nothing
// cached. The page carries the same Content-Security-Policy as locally. The build runs inside the
// synth (CDK local bundling with web/build.ts), so no step has to build it beforehand.
import { DockerImage, Duration, Fn, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { buildConsoleSync, WEB_ROOT } from '../../web/build';
import { API_PATH_PATTERNS, CONTENT_SECURITY_POLICY } from '../console';

export interface WebConsoleProps {
  api: HttpApi;
  /** A console already built (tests); by default the synth builds it. */
  assetsDir?: string;
}

/** The built console as a CDK asset: web/build.ts runs locally at synth (no Docker). */
function consoleSource(): ISource {
  return Source.asset(WEB_ROOT, {
    exclude: ['dist', 'dist/**'],
    bundling: {
      // Never pulled: the local build below always succeeds or throws.
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-alpine'),
      local: {
        tryBundle(outputDir: string) {
          buildConsoleSync(outputDir);
          return true;
        },
      },
    },
  });
}

export class WebConsole extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  readonly responseHeaders: ResponseHeadersPolicy;
  /** The one URL: console at `/`, API under the same origin. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: WebConsoleProps) {
    super(scope, id);

    this.bucket = new Bucket(this, 'Assets', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Rebuildable from the repository, but kept like the other stateful resources.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Holds only the public console build (no data); it is private and read by CloudFront alone, written only by the deployment, so server access logs would record nothing worth auditing.',
    });

    this.responseHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'On-call console: strict CSP, no framing, nosniff, no referrer, HSTS',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CONTENT_SECURITY_POLICY, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });

    const apiOrigin = new HttpOrigin(Fn.select(2, Fn.split('/', props.api.apiEndpoint)), {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      // Senders reuse idle connections (docs/api.md#integrations): keep the origin's open as long as allowed.
      keepaliveTimeout: Duration.seconds(60),
      readTimeout: Duration.seconds(30),
    });
    const apiBehavior: BehaviorOptions = {
      origin: apiOrigin,
      // A redirect would turn a POST into a GET; plain HTTP is refused instead.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Everything the client sent except Host (API Gateway answers to its own name); with caching
      // disabled this includes Authorization.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: false,
    };

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'On-call service: web console and API under one origin',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeaders,
        compress: true,
      },
      additionalBehaviors: Object.fromEntries(API_PATH_PATTERNS.map((pattern) => [pattern, apiBehavior])),
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'People on call travel: the console and API must answer from any country; no geo restriction.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'Every API request is authenticated in the functions, limited per credential and account there, and throttled by the API stage; a WAF web ACL with a rate rule is one context setting away (wafRateLimit, or wafWebAclArn outside us-east-1: infra/constructs/edge-limits.ts), left to the operator who knows the traffic.',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'API requests through the distribution are recorded by the API stage access log; the static console files carry no data, so CloudFront standard logs (which need an ACL-enabled bucket) add cost without audit value.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The distribution uses the default *.cloudfront.net certificate, whose TLS policy CloudFront sets; a custom domain with its own certificate and TLSv1.2_2021 is the operator’s choice.',
      },
    );

    const source = props.assetsDir ? Source.asset(props.assetsDir) : consoleSource();
    const { role, logGroup } = this.deploymentRole();
    // Assets first and never pruned (an open tab keeps loading the files its page names), then the
    // page, which is revalidated on every load and invalidated in CloudFront.
    const assets = new BucketDeployment(this, 'DeployAssets', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: ['assets/*'],
      prune: false,
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
      role,
      logGroup,
      memoryLimit: 256,
    });
    const page = new BucketDeployment(this, 'DeployPage', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: ['index.html'],
      prune: false,
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/', '/index.html'],
      role,
      logGroup,
      memoryLimit: 256,
    });
    page.node.addDependency(assets);
    this.acknowledgeDeploymentHandler();

    this.url = `https://${this.distribution.distributionDomainName}`;
  }

  /** The deployment function's own role and log group: no managed policy. */
  private deploymentRole(): { role: Role; logGroup: LogGroup } {
    const logGroup = new LogGroup(this, 'DeploymentLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const role = new Role(this, 'DeploymentRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    role.addToPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
    );
    // What CDK's BucketDeployment grants its copier: read the CDK asset bucket, write the console
    // bucket, invalidate the distribution. Its wildcards are CDK's, scoped to those two buckets.
    const reason =
      'Granted by CDK’s BucketDeployment to its copier, scoped to the CDK asset bucket and the console bucket; it runs only during deployments.';
    Validations.of(role).acknowledge(
      ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map((action) => ({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason,
      })),
      { id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket)}.Arn>/*]`, reason },
      { id: `AwsSolutions-IAM5[Resource::${this.cdkAssetObjects()}]`, reason },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'cloudfront:CreateInvalidation and GetInvalidation, which BucketDeployment grants on * (the page is invalidated after each deployment).',
      },
    );
    return { role, logGroup };
  }

  /** The CDK asset bucket's objects as cdk-nag writes them: concrete where the stack's env is. */
  private cdkAssetObjects(): string {
    const stack = Stack.of(this);
    const shown = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    return `arn:${shown(stack.partition, 'AWS::Partition')}:s3:::cdk-hnb659fds-assets-${shown(stack.account, 'AWS::AccountId')}-${shown(stack.region, 'AWS::Region')}/*`;
  }

  /** BucketDeployment's copier is a singleton at the stack's root, created by CDK. */
  private acknowledgeDeploymentHandler(): void {
    for (const child of Stack.of(this).node.children) {
      if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
      Validations.of(child).acknowledge({
        id: 'AwsSolutions-L1',
        reason: 'The runtime of CDK’s own BucketDeployment handler is chosen by aws-cdk-lib; it runs only during deployments.',
      });
    }
  }
}
