import { START_POSITION } from './port';

/**
 * Position tokens are 'xid:position', each zero-padded to 20 digits, so that tokens compare as
 * strings in global order. '' (START_POSITION) is before every event.
 */
export type Position = { transactionId: bigint; globalPosition: bigint };

const TOKEN = /^(\d{20}):(\d{20})$/;

export function encodePosition(
  transactionId: bigint | number | string,
  globalPosition: bigint | number | string,
) {
  return `${String(transactionId).padStart(20, '0')}:${String(globalPosition).padStart(20, '0')}`;
}

export function decodePosition(token: string | null | undefined): Position {
  if (token === undefined || token === null || token === START_POSITION) {
    return { transactionId: 0n, globalPosition: 0n };
  }
  const m = TOKEN.exec(token);
  if (!m) throw new Error(`Invalid event position token: ${JSON.stringify(token)}`);
  return { transactionId: BigInt(m[1]!), globalPosition: BigInt(m[2]!) };
}

/** Compares two tokens in global order (negative when a is before b). */
export function comparePositions(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
