// What every AWS SDK client of the service shares (the table's and the queues').
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import https from 'node:https';
import { NodeHttpHandler } from '@smithy/node-http-handler';

/**
 * We never log SDK traffic, but the SDK's logger middleware still runs its redaction filters over
 * every input and output for its no-op logger: a few percent of CPU per call, for nothing.
 */
export function withoutSdkLogging(client: { middlewareStack: { remove(name: string): boolean } }): void {
  client.middlewareStack.remove('loggerMiddleware');
}

const background = new AsyncLocalStorage<true>();

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

const agents = (maxSockets: number) => ({
  httpAgent: new http.Agent({ keepAlive: true, maxSockets }),
  httpsAgent: new https.Agent({ keepAlive: true, maxSockets }),
});

/** An SDK request handler with two socket pools: background work (runInBackground) never queues in front of a request's calls. */
export class LaneHandler extends NodeHttpHandler {
  private readonly backgroundLane: NodeHttpHandler;

  constructor(sockets: { foreground?: number; background?: number } = {}) {
    super(agents(sockets.foreground ?? FOREGROUND_SOCKETS));
    this.backgroundLane = new NodeHttpHandler(agents(sockets.background ?? BACKGROUND_SOCKETS));
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
