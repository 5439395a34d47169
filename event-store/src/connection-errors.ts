/**
 * How a failed statement failed: the database answered (a constraint, a conflict, a syntax
 * error: nothing was done), the connection was refused before anything was sent, or the
 * connection broke while the statement may have reached the server. Only the last leaves an
 * append's outcome open (postgres-event-store.ts confirms it by appending the same ids again).
 */

/** SQLSTATEs and socket codes of a database that went away or could not be reached. */
const CONNECTION_CODES = new Set([
  '57P01', // admin_shutdown (pg_terminate_backend, a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
]);

/** Of those, the ones raised before the statement was sent: nothing can have happened. */
const NOT_SENT_CODES = new Set(['57P03', '08001', 'ECONNREFUSED']);

const CONNECTION_MESSAGE =
  /Connection terminated|connection timeout|Client has encountered a connection error/i;
/** pg-pool's own: no connection was free or could be opened in time. */
const NOT_SENT_MESSAGE = /timeout exceeded when trying to connect|due to connection timeout/i;

function fieldsOf(error: unknown): { code?: unknown; message?: unknown } {
  return error && typeof error === 'object' ? (error as { code?: unknown; message?: unknown }) : {};
}

/** The database was unreachable or the connection broke: says nothing about the statement itself. */
export function isConnectionError(error: unknown): boolean {
  const { code, message } = fieldsOf(error);
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  return typeof message === 'string' && CONNECTION_MESSAGE.test(message);
}

/** A connection error raised before the statement reached the server (refused, no connection). */
export function wasNeverSent(error: unknown): boolean {
  const { code, message } = fieldsOf(error);
  if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true;
  return typeof message === 'string' && NOT_SENT_MESSAGE.test(message);
}
