// @middy/core as the functions' bundles carry it (infra/bundling.ts aliases `@middy/core` here): the
// part lib/api/handler.ts runs — use() with before, after and onError steps, handler(), an early
// response from a step, the error path, and the early timeout that answers just before Lambda would
// stop the function. Left out: response streaming (streamifyResponse) and the plugin hooks, whose
// imports (`node:stream/web` above all: 2.6 ms of every cold start, docs/ARCHITECTURE.md "Cold
// start") the service never uses; asking for either throws at the handler's construction. The local
// runtime and the tests run the real package; test/infra/bundled-middy.test.ts runs the same chains
// through both and compares every step, answer and error.

type Step = (request: ChainRequest) => unknown;

interface ChainRequest {
  event: unknown;
  context: { getRemainingTimeInMillis?: () => number } & Record<string, unknown>;
  response: unknown;
  error: unknown;
  internal: Record<string, unknown>;
  earlyResponse?: unknown;
}

interface MiddlewareObj {
  before?: Step;
  after?: Step;
  onError?: Step;
}

interface PluginConfig {
  timeoutEarlyInMillis?: number;
  timeoutEarlyResponse?: () => unknown;
  internal?: Record<string, unknown>;
  [other: string]: unknown;
}

type LambdaHandler = (event: unknown, context: unknown, options: { signal: AbortSignal }) => unknown;

const SUPPORTED = new Set(['timeoutEarlyInMillis', 'timeoutEarlyResponse', 'internal']);

/** What the real package throws when the function's time is up (lib/http/gateway-results.ts tells it by these). */
function ranOutOfTime(): never {
  const error = new Error('[AbortError]: The operation was aborted.', { cause: { package: '@middy/core' } });
  error.name = 'TimeoutError';
  throw error;
}

/** The steps of one stage in order; a step that returns a value answers with it and ends the stage. */
async function runSteps(request: ChainRequest, steps: readonly Step[]): Promise<void> {
  for (const step of steps) {
    const answer = await step(request);
    if (answer !== undefined) request.earlyResponse = answer;
    if (Object.hasOwn(request, 'earlyResponse')) {
      request.response = request.earlyResponse;
      return;
    }
  }
}

// One controller for every request, renewed once a timeout has aborted it (creating one per request costs).
let abort = new AbortController();

export default function middy(setup?: LambdaHandler | PluginConfig, pluginConfig?: PluginConfig) {
  let lambdaHandler: LambdaHandler = typeof setup === 'function' ? setup : () => undefined;
  const config: PluginConfig = (typeof setup === 'function' ? pluginConfig : setup) ?? {};
  const unsupported = Object.keys(config).filter((key) => !SUPPORTED.has(key) && config[key] !== undefined && config[key] !== false);
  if (unsupported.length) throw new Error(`@middy/core as bundled has no ${unsupported.join(', ')} (infra/bundled/middy-core.ts)`);
  const timeoutEarlyMs = config.timeoutEarlyInMillis ?? 5;
  const timeoutEarlyResponse = config.timeoutEarlyResponse ?? ranOutOfTime;
  const before: Step[] = [];
  const after: Step[] = [];
  const onError: Step[] = [];

  const run = async (event: unknown = {}, context: ChainRequest['context'] = {}) => {
    const request: ChainRequest = { event, context, response: undefined, error: undefined, internal: config.internal ?? {} };
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await runSteps(request, before);
      if (!Object.hasOwn(request, 'earlyResponse')) {
        if (abort.signal.aborted) abort = new AbortController();
        const answers = [lambdaHandler(request.event, request.context, { signal: abort.signal })];
        if (timeoutEarlyMs > 0 && request.context.getRemainingTimeInMillis) {
          answers.push(
            new Promise((resolve) => {
              timer = setTimeout(() => {
                abort.abort();
                // What it throws (the default: ranOutOfTime) rejects the race.
                resolve(Promise.resolve().then(timeoutEarlyResponse));
              }, request.context.getRemainingTimeInMillis!() - timeoutEarlyMs);
            }),
          );
        }
        request.response = await Promise.race(answers);
        clearTimeout(timer);
        await runSteps(request, after);
      }
    } catch (error) {
      clearTimeout(timer);
      // What the after steps did to the answer before one of them threw is undone.
      request.response = undefined;
      request.error = error;
      try {
        await runSteps(request, onError);
      } catch (unhandled) {
        (unhandled as { originalError?: unknown }).originalError = request.error;
        request.error = unhandled;
        throw unhandled;
      }
      if (request.response === undefined) throw request.error;
    }
    return request.response;
  };

  const chain = Object.assign(run, {
    use(middlewares: MiddlewareObj | MiddlewareObj[]) {
      for (const middleware of Array.isArray(middlewares) ? middlewares : [middlewares]) {
        if (!middleware.before && !middleware.after && !middleware.onError) {
          throw new Error('Middleware must be an object containing at least one key among "before", "after", "onError"');
        }
        if (middleware.before) chain.before(middleware.before);
        if (middleware.after) chain.after(middleware.after);
        if (middleware.onError) chain.onError(middleware.onError);
      }
      return chain;
    },
    before(step: Step) {
      before.push(step);
      return chain;
    },
    // After and error steps run in the reverse order of their use().
    after(step: Step) {
      after.unshift(step);
      return chain;
    },
    onError(step: Step) {
      onError.unshift(step);
      return chain;
    },
    handler(replacement: LambdaHandler) {
      lambdaHandler = replacement;
      return chain;
    },
  });
  return chain;
}
