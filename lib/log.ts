// Structured logging through Powertools' Logger: JSON lines with the function name, level-gated.
// The Logger is made by the first line written, not at import: making it (its console, the
// environment it reads) was ~5 ms of every cold start, and most requests write nothing (issue 21).
import { Logger } from '@aws-lambda-powertools/logger';

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

/** The service's logger: Powertools' Logger, made by the first line written. */
export const logger = {
  debug: ((...args) => powertools().debug(...args)) as Line,
  info: ((...args) => powertools().info(...args)) as Line,
  warn: ((...args) => powertools().warn(...args)) as Line,
  error: ((...args) => powertools().error(...args)) as Line,
  setLogLevel: (level: Level) => powertools().setLogLevel(level),
  getLevelName: () => powertools().getLevelName(),
};
