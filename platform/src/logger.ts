import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
// Request lines already say method, url, status and duration in their message.
const QUIET_KEYS = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'err',
  'method',
  'url',
  'statusCode',
  'ms',
]);

/** One JSON log line as one human line: `12:04:05 INFO  POST /api/loans 201 14 ms  correlationId=…`. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json;
  }
  const time = new Date(Number(entry.time)).toISOString().slice(11, 19);
  const level = (LEVELS[Number(entry.level)] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key]) => !QUIET_KEYS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const err = entry.err as { message?: string; stack?: string } | undefined;
  const detail = err ? (Number(entry.level) >= 50 && err.stack ? `\n${err.stack}` : `  ${err.message}`) : '';
  return `${time} ${level} ${entry.msg ?? ''}${fields.length ? `  ${fields.join(' ')}` : ''}${detail}\n`;
}

function prettyStream(out: NodeJS.WritableStream): DestinationStream {
  return { write: (line: string) => out.write(prettyLine(line)) };
}

/**
 * The process's logger, shared by requests, projections, queue and mail. Production writes
 * JSON lines (one per event, for a log pipeline); elsewhere one short human line each.
 */
export function createLogger(config: { LOG_LEVEL: string; NODE_ENV?: string }, fd: 1 | 2 = 1): Logger {
  const options = {
    level: config.LOG_LEVEL,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  };
  // Production buffers lines and writes them off the request's path (a synchronous write per
  // request line was a tenth of a busy API thread); pino flushes what is left when the process exits.
  return config.NODE_ENV === 'production'
    ? pino(options, pino.destination({ dest: fd, sync: false, minLength: 4096 }))
    : pino(options, prettyStream(fd === 2 ? process.stderr : process.stdout));
}
