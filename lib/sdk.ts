// What every AWS SDK client of the service shares (the table's and the queues').

/**
 * We never log SDK traffic, but the SDK's logger middleware still runs its redaction filters over
 * every input and output for its no-op logger: a few percent of CPU per call, for nothing.
 */
export function withoutSdkLogging(client: { middlewareStack: { remove(name: string): boolean } }): void {
  client.middlewareStack.remove('loggerMiddleware');
}
