// Work over a list with a bounded number of calls in flight: enough to overlap round trips, few
// enough not to burst a table partition or another service's rate limit.

/** `work` over every item, at most `atOnce` at a time; the results in the items' order. */
export async function mapInTurns<T, R>(items: readonly T[], atOnce: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  return results;
}
