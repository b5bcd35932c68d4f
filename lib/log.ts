// Structured logging through Powertools' Logger: JSON lines with the function name, level-gated.
// The Logger is made by the first line written, not at import: making it (its console, the
// environment it reads) was ~5 ms of every cold start, and most requests write nothing (issue 21).
// An error's stack is read against the bundle's source maps as it is logged (lib/stack-maps.ts).
import { Logger } from '@aws-lambda-powertools/logger';
import { mapErrorStack } from './stack-maps';

type Level = Parameters<Logger['setLogLevel']>[0];

let made: Logger | undefined;

function powertools(): Logger {
  const level = (process.env.LOG_LEVEL ?? 'INFO').toUpperCase();
  return (made ??= new Logger({
    serviceName: 'oncall',
    logLevel: (level === 'SILENT' ? 'SILENT' : level) as Level,
  }));
}

type Line = Logger['info'];

/** The errors a line carries (an argument, or an attribute of one) with their stacks read against the source maps. */
function mapErrors(args: unknown[]): void {
  for (const arg of args) {
    if (arg instanceof Error) mapErrorStack(arg);
    else if (arg !== null && typeof arg === 'object')
      for (const value of Object.values(arg)) if (value instanceof Error) mapErrorStack(value);
  }
}

/** A level's method, which makes the Logger when it first writes. */
function line(level: 'debug' | 'info' | 'warn' | 'error'): Line {
  return (input, ...extra) => {
    const logger = powertools();
    mapErrors([input, ...extra]);
    (logger[level] as (...args: unknown[]) => void).call(logger, input, ...extra);
  };
}

/** The service's logger: Powertools' Logger, made by the first line written. */
export const logger = {
  debug: line('debug'),
  info: line('info'),
  warn: line('warn'),
  error: line('error'),
  setLogLevel: (level: Level) => powertools().setLogLevel(level),
  getLevelName: () => powertools().getLevelName(),
};
