// Counts the rate limiters' table writes (UpdateItem on a `…#RATE` item: the inbound bucket per
// integration, the API's buckets per credential, account and address), in-process, for the limit
// benchmarks (bench/ingest-limits.ts, bench/limits.ts). Failed conditional writes count too: they are billed.
import { db } from '../lib/store/client';

export function countLimiterWrites(): { value: () => number } {
  let writes = 0;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      // The client's own command, its input marshalled (lib/store/commands.ts).
      const input = args.input as { Key?: { pk?: { S?: string } } };
      if (context.commandName === 'UpdateItemCommand' && input.Key?.pk?.S?.endsWith('#RATE')) writes++;
      return next(args);
    },
    { step: 'initialize', name: 'benchLimiterWrites' },
  );
  return { value: () => writes };
}
