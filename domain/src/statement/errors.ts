import { ValidationError } from '../shared/errors';

/**
 * A statement file that cannot be read at all (empty, binary, a broken quote, no header row).
 * It is a 422 on the `file` field, so nothing is recorded; `line` and `column` (1-based) point
 * into the file where they are known.
 */
export class StatementFileError extends ValidationError {
  constructor(
    message: string,
    readonly code: StatementFileErrorCode,
    readonly line: number | null = null,
    readonly column: number | null = null,
  ) {
    super([{ field: 'file', message }], message);
  }
}

export type StatementFileErrorCode =
  | 'EMPTY_FILE'
  | 'BINARY_FILE'
  | 'UNSUPPORTED_FORMAT'
  | 'BROKEN_QUOTE'
  | 'NO_HEADER'
  | 'BAD_MAPPING'
  | 'BAD_OFX'
  | 'BAD_QIF';

/** "line 12, column 3" for messages. */
export function at(line: number, column?: number | null): string {
  return column == null ? `line ${line}` : `line ${line}, column ${column}`;
}

/** "Line 12, column 3" to start a message. */
export function At(line: number, column?: number | null): string {
  const text = at(line, column);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
