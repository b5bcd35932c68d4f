// What every AWS SDK client of the service shares (the table's and the queues').
import http from 'node:http';
import https from 'node:https';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { ContextSlot } from './async-context';

/**
 * We never log SDK traffic, but the SDK's logger middleware still runs its redaction filters over
 * every input and output for its no-op logger: a few percent of CPU per call, for nothing.
 */
export function withoutSdkLogging(client: { middlewareStack: { remove(name: string): boolean } }): void {
  client.middlewareStack.remove('loggerMiddleware');
}

/**
 * One client of a service per process, made again (the old one destroyed) when its endpoint changes:
 * the SDK's standard `AWS_ENDPOINT_URL_<SERVICE>` variable, else `AWS_ENDPOINT_URL`, so the same code
 * talks to AWS, LocalStack, moto or the embedded emulators, and the local runtime and the tests may
 * point the process at another emulator between runs.
 */
export function clientPerEndpoint<T extends { destroy(): void }>(
  serviceEndpointVariable: string,
  make: (endpoint: string | undefined) => T,
): () => T {
  let client: T | undefined;
  let clientEndpoint: string | undefined;
  let clientHandler: ServiceRequestHandler | undefined;
  return () => {
    const endpoint = process.env[serviceEndpointVariable] ?? process.env.AWS_ENDPOINT_URL;
    // Also when another in-process handler answers the endpoint now: an emulator started on the
    // port number a stopped one had (the client made then holds that one's closed handler).
    const handler = endpoint === undefined ? undefined : inProcessHandlers.get(endpoint);
    if (!client || clientEndpoint !== endpoint || clientHandler !== handler) {
      client?.destroy();
      client = make(endpoint);
      clientEndpoint = endpoint;
      clientHandler = handler;
    }
    return client;
  };
}

/** The part of an SDK request handler the service's clients use (NodeHttpHandler's, or one given to answerInProcess). */
export type ServiceRequestHandler = Pick<NodeHttpHandler, 'handle' | 'updateHttpClientConfig' | 'httpHandlerConfigs' | 'destroy'>;

/** Request handlers of endpoints answered inside this process (the local runtime's embedded DynamoDB). */
const inProcessHandlers = new Map<string, ServiceRequestHandler>();

/**
 * Makes the service's clients of `endpoint` made from now on hand their requests to `handler`
 * instead of opening sockets (infra/local/dynamo-port.ts); the function returned undoes it. Deployed,
 * nothing calls this.
 */
export function answerInProcess(endpoint: string, handler: ServiceRequestHandler): () => void {
  inProcessHandlers.set(endpoint, handler);
  return () => {
    if (inProcessHandlers.get(endpoint) === handler) inProcessHandlers.delete(endpoint);
  };
}

const background = new ContextSlot<true>('background lane');

/**
 * Runs `work` as background work: its AWS calls take the background lane of the service's clients.
 * Deployed, every function has its own process and nothing calls this. The local runtime runs the
 * queue workers and the sweeper in the one process that also serves the API: without lanes a burst
 * of webhooks puts hundreds of the workers' calls in the socket queue in front of every request's
 * call, and a plain read waits seconds behind them (a list answered 500 when its time ran out).
 */
export function runInBackground<T>(work: () => T): T {
  return background.run(true, work);
}

/** Runs `work` outside any background work it was called from (a request's part of a shared write). */
export function runInForeground<T>(work: () => T): T {
  return background.exit(work);
}

export const inBackground = (): boolean => background.getStore() === true;

/** The SDK's own default: what a request's calls get, deployed and locally. */
export const FOREGROUND_SOCKETS = 50;
/** Enough to keep a single-threaded emulator busy; the rest of the background waits in its own queue. */
export const BACKGROUND_SOCKETS = 16;

/**
 * Background calls queue for their sockets by design (a burst of webhooks): the SDK's warning that
 * requests wait for a socket (after 3 s by default) would fire on every burst. Waiting this long
 * is worth a warning.
 */
const BACKGROUND_SOCKET_WARNING_MS = 30_000;

const agents = (maxSockets: number) => ({
  httpAgent: new http.Agent({ keepAlive: true, maxSockets }),
  httpsAgent: new https.Agent({ keepAlive: true, maxSockets }),
});

/** An SDK request handler with two socket pools: background work (runInBackground) never queues in front of a request's calls. */
export class LaneHandler extends NodeHttpHandler {
  private readonly backgroundLane: NodeHttpHandler;

  constructor(sockets: { foreground?: number; background?: number } = {}) {
    super(agents(sockets.foreground ?? FOREGROUND_SOCKETS));
    this.backgroundLane = new NodeHttpHandler({
      ...agents(sockets.background ?? BACKGROUND_SOCKETS),
      socketAcquisitionWarningTimeout: BACKGROUND_SOCKET_WARNING_MS,
    });
  }

  override handle(...args: Parameters<NodeHttpHandler['handle']>): ReturnType<NodeHttpHandler['handle']> {
    return inBackground() ? this.backgroundLane.handle(...args) : super.handle(...args);
  }

  override updateHttpClientConfig(...args: Parameters<NodeHttpHandler['updateHttpClientConfig']>): void {
    super.updateHttpClientConfig(...args);
    this.backgroundLane.updateHttpClientConfig(...args);
  }

  override destroy(): void {
    this.backgroundLane.destroy();
    super.destroy();
  }
}

/**
 * Set by the local runtime while its embedded emulators serve the process (infra/local/runtime.ts):
 * they check that a request carries a well-formed SigV4 header but never verify the signature.
 */
export const EMBEDDED_EMULATORS_VARIABLE = 'EMBEDDED_AWS_EMULATORS';

const embeddedEmulators = () => process.env[EMBEDDED_EMULATORS_VARIABLE] === 'true';

/** What the SDK tells a signer (the part of its RequestSigningArguments used here). */
interface SigningOptions {
  signingDate?: Date | string | number;
  signingRegion?: string;
  signingService?: string;
}

/**
 * Stamps the header the embedded emulators check, without computing a signature: SigV4's hashing
 * and HMACs were about 8 % of the local process's main thread under load, for emulators that
 * ignore the result. Never used against AWS or another endpoint (moto, LocalStack).
 */
export const emulatorSigner = {
  // eslint-disable-next-line @typescript-eslint/require-await
  async sign<R extends { headers: Record<string, string> }>(request: R, options: SigningOptions = {}): Promise<R> {
    const stamp = stampOf(options);
    request.headers['x-amz-date'] = stamp.date;
    request.headers.authorization = stamp.authorization;
    return request;
  },
};

/** The last stamp made: its second, region and service (a stamp names the second: calls within one share it). */
let lastStamp = { key: '', date: '', authorization: '' };

function stampOf(options: SigningOptions): { date: string; authorization: string } {
  const second = Math.floor(new Date(options.signingDate ?? Date.now()).getTime() / 1000);
  const region = options.signingRegion ?? 'us-east-1';
  const service = options.signingService ?? 'dynamodb';
  const key = `${second}/${region}/${service}`;
  if (lastStamp.key !== key) {
    const date = new Date(second * 1000).toISOString().replace(/[-:]|\.\d{3}/g, '');
    const scope = `${date.slice(0, 8)}/${region}/${service}/aws4_request`;
    lastStamp = {
      key,
      date,
      authorization: `AWS4-HMAC-SHA256 Credential=local/${scope}, SignedHeaders=host;x-amz-date, Signature=unsigned`,
    };
  }
  return lastStamp;
}

/**
 * The middleware a client of the service's table and queues goes without, once made with
 * serviceClientConfig: the SDK's logging (withoutSdkLogging), and against the embedded emulators
 * what only tells AWS about the caller: the user agent, built and escaped on every call (with the
 * signing already skipped, a GetItem took ~20 % less of the main thread's CPU without it and the
 * next), and the recursion detection header (a Lambda's trace id, which Lambda's loop detection
 * reads from the messages it carries: there is no Lambda locally). Deployed, and against moto or
 * LocalStack, the clients keep both.
 */
export function trimServiceClient(client: { middlewareStack: { remove(name: string): boolean } }): void {
  withoutSdkLogging(client);
  if (!embeddedEmulators()) return;
  client.middlewareStack.remove('getUserAgentMiddleware');
  client.middlewareStack.remove('recursionDetectionMiddleware');
}

const CHANGES_STACK = new Set<PropertyKey>(['add', 'addRelativeTo', 'use', 'remove', 'removeByTag']);

/**
 * Makes `client` resolve each command's middleware stack once (the SDK's `cacheMiddleware`: it sorted
 * and composed the stack again on every call), and again after a middleware is added or removed
 * (the tests' and benchmarks' meters): its stack forgets what was resolved when it changes. And
 * gives its configuration fast properties (withFastProperties), which every call copies.
 */
export function resolveStackOnce(client: { config: object; middlewareStack: object }): void {
  const forget = () => delete (client as { handlers?: unknown }).handlers;
  client.middlewareStack = new Proxy(client.middlewareStack, {
    get(stack, name, receiver) {
      const value = Reflect.get(stack, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (!CHANGES_STACK.has(name)) return (value as (...args: unknown[]) => unknown).bind(stack);
      return (...args: unknown[]) => {
        const result = (value as (...args: unknown[]) => unknown).apply(stack, args);
        forget();
        return result;
      };
    },
  });
  (client.config as { cacheMiddleware?: boolean }).cacheMiddleware = true;
  withFastProperties(client.config);
}

/** Property lookups through `object` as a prototype, enough of them for V8 to have warmed their inline cache. */
const PROTOTYPE_LOOKUPS = 32;

/**
 * Gives `object` fast properties (V8's hidden class) again, in place: the same object, the same
 * properties and accessors. A client's resolved configuration is in dictionary mode (the SDK redefines
 * its `credentials` as an accessor on it, resolveAwsSdkSigV4Config), and three middlewares copy the
 * whole of it on every call (`{ ...config }`: endpoint resolution, serialising the request, parsing
 * the answer): a copy of its 50 properties took ~10 µs on this machine, ~1 µs once they are fast (a
 * GetItem's work in the SDK, signed, against a handler that answers at once: 154 → 122 µs of CPU).
 * V8 makes a dictionary-mode object fast when property lookups go through it as a prototype
 * (what bluebird's toFastProperties relies on); nothing else about the object changes, and should a
 * V8 stop doing it, the calls only cost what they did. test/infra/sdk-config.test.ts checks it.
 */
export function withFastProperties(object: object): void {
  const heir = Object.create(object) as Record<string, unknown>;
  const lookUp = (through: Record<string, unknown>) => through.__noSuchSetting__;
  for (let i = 0; i < PROTOTYPE_LOOKUPS; i++) lookUp(heir);
}

/** What every client of the service's table and queues is made with: retries, the two socket lanes (or the in-process handler of `endpoint`: answerInProcess), and no signing for the embedded emulators. */
export function serviceClientConfig(endpoint?: string): {
  maxAttempts: number;
  requestHandler: ServiceRequestHandler;
  signer?: typeof emulatorSigner;
} {
  const inProcess = endpoint === undefined ? undefined : inProcessHandlers.get(endpoint);
  return {
    maxAttempts: 4,
    requestHandler: inProcess ?? new LaneHandler(),
    ...(embeddedEmulators() ? { signer: emulatorSigner } : {}),
  };
}
