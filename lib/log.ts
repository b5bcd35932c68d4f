// Structured logging through Powertools' Logger: JSON lines with the function name, level-gated.
import { Logger } from '@aws-lambda-powertools/logger';

const level = (process.env.LOG_LEVEL ?? 'INFO').toUpperCase();

export const logger = new Logger({
  serviceName: 'oncall',
  logLevel: (level === 'SILENT' ? 'SILENT' : level) as 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT',
});
