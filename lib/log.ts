// Structured logging through Powertools' Logger: JSON lines with the function name, level-gated.
// The package is loaded, and the Logger made, by the first line written, not at import: the package
// was ~1.4 ms of every cold start (21 KiB with `node:console`), making the Logger (its console, the
// environment it reads) ~5 ms more, and most requests write nothing (issue 21). Lines written while
// it loads wait for it, in their order; every entry point waits for them before its invocation ends
// (`logsWritten`, with the metrics' flush: lib/metrics.ts), so no line is left to a frozen process.
// An error's stack is read against the bundle's source maps as it is logged (lib/stack-maps.ts).
import type { Logger } from '@aws-lambda-powertools/logger';
import { mapErrorStack } from './stack-maps';

type Level = Parameters<Logger['setLogLevel']>[0];
type Method = 'debug' | 'info' | 'warn' | 'error';

let made: Logger | undefined;
let loading: Promise<void> | undefined;
/** Lines written before the Logger was made: written by it, in order, once it is. */
const waiting: { method: Method; args: unknown[] }[] = [];
/** A level set before the Logger was made (the local runtime's, a test's). */
let levelSet: Level | undefined;

function levelFromEnvironment(): Level {
  const level = (process.env.LOG_LEVEL ?? 'INFO').toUpperCase();
  return (level === 'SILENT' ? 'SILENT' : level) as Level;
}

function write(logger: Logger, method: Method, args: unknown[]): void {
  (logger[method] as (...line: unknown[]) => void).apply(logger, args);
}

function load(): Promise<void> {
  loading ??= import('@aws-lambda-powertools/logger').then(
    ({ Logger: Made }) => {
      made = new Made({ serviceName: 'oncall', logLevel: levelSet ?? levelFromEnvironment() });
      for (const line of waiting.splice(0)) write(made, line.method, line.args);
    },
    (error: unknown) => {
      // Never lose a line to a package that failed to load: each goes to stderr as JSON, as it was given.
      loading = undefined;
      for (const { method, args } of waiting.splice(0))
        console.error(JSON.stringify({ level: method.toUpperCase(), line: args, logger: String(error) }));
    },
  );
  return loading;
}

/** Resolves once every line written so far is out (at once when none waits for the Logger). */
export function logsWritten(): Promise<void> {
  return waiting.length === 0 ? Promise.resolve() : load();
}

/** The errors a line carries (an argument, or an attribute of one) with their stacks read against the source maps. */
function mapErrors(args: unknown[]): void {
  for (const arg of args) {
    if (arg instanceof Error) mapErrorStack(arg);
    else if (arg !== null && typeof arg === 'object')
      for (const value of Object.values(arg)) if (value instanceof Error) mapErrorStack(value);
  }
}

type Line = Logger['info'];

/** A level's method: it writes at once once the Logger is made, else when it is. */
function line(method: Method): Line {
  return (...args: unknown[]) => {
    mapErrors(args);
    if (made) write(made, method, args);
    else {
      waiting.push({ method, args });
      void load();
    }
  };
}

/** The service's logger: Powertools' Logger, loaded and made by the first line written. */
export const logger = {
  debug: line('debug'),
  info: line('info'),
  warn: line('warn'),
  error: line('error'),
  setLogLevel: (level: Level) => {
    levelSet = level;
    made?.setLogLevel(level);
  },
  getLevelName: () => made?.getLevelName() ?? levelSet ?? levelFromEnvironment(),
};
