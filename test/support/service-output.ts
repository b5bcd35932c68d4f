// What a test reads back to check that a secret went nowhere: every item of the service's table, and
// the log lines the service wrote (at DEBUG) while some work ran.
import { ScanCommand } from '../../lib/store/commands';
import { logger, logsWritten } from '../../lib/log';
import { db } from '../../lib/store/client';

/** Every item of the table (a Scan: tests only). */
export async function scanTable(tableName: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Runs `work` with the service's log at DEBUG and returns what was written to stdout and stderr meanwhile
 * (kept, not printed: the test's output stays quiet). */
export async function outputOf(work: () => Promise<void>): Promise<string> {
  const written: string[] = [];
  const capture = (stream: NodeJS.WriteStream) => {
    const original = stream.write.bind(stream);
    stream.write = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    return () => (stream.write = original);
  };
  const level = logger.getLevelName();
  logger.setLogLevel('DEBUG');
  const restore = [capture(process.stdout), capture(process.stderr)];
  try {
    await work();
    await logsWritten();
  } finally {
    restore.forEach((undo) => undo());
    logger.setLogLevel(level);
  }
  return written.join('');
}
