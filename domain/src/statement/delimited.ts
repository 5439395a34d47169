import { at, StatementFileError } from './errors';

/** One record of a comma- or tab-separated file: its cells and the line it starts on (1-based). */
export type CellRow = { cells: string[]; line: number };

/** A quoted field longer than this many lines is a quote that was never closed. */
const MAX_LINES_IN_QUOTED_FIELD = 50;

/**
 * Splits comma- or tab-separated text into rows as it arrives, chunk by chunk, holding back only
 * the unfinished last row (so memory stays bounded however long the file is). Quoted fields may
 * hold the delimiter, doubled quotes and line breaks; CRLF and LF both end a line. A quote that
 * is never closed, or text right after a closing quote, is a `StatementFileError` naming the line
 * and column where it happens.
 */
export class DelimitedReader {
  private buffer = '';
  private line = 1;

  constructor(private readonly delimiter: ',' | '\t') {}

  push(text: string): CellRow[] {
    this.buffer += text;
    return this.drain(false);
  }

  end(): CellRow[] {
    return this.drain(true);
  }

  private drain(final: boolean): CellRow[] {
    const rows: CellRow[] = [];
    const buffer = this.buffer;
    let position = 0;
    while (position < buffer.length) {
      const lineEnd = buffer.indexOf('\n', position);
      if (lineEnd === -1 && !final) break;
      const end = lineEnd === -1 ? buffer.length : lineEnd;
      const text = buffer.slice(position, end);
      if (!text.includes('"')) {
        rows.push({ cells: stripCr(text).split(this.delimiter), line: this.line });
        this.line += 1;
        position = end + 1;
        continue;
      }
      const parsed = this.quotedRow(buffer, position, final);
      if (parsed === null) break;
      rows.push({ cells: parsed.cells, line: this.line });
      this.line += parsed.lines;
      position = parsed.next;
    }
    this.buffer = buffer.slice(Math.min(position, buffer.length));
    return rows;
  }

  /** A row that holds quotes, read cell by cell; null when its end has not arrived yet. */
  private quotedRow(
    buffer: string,
    start: number,
    final: boolean,
  ): { cells: string[]; next: number; lines: number } | null {
    const cells: string[] = [];
    let position = start;
    let lines = 1;
    let lineStart = start;
    let opened = { line: 0, column: 0 };
    for (;;) {
      if (buffer[position] === '"') {
        opened = { line: this.line + lines - 1, column: position - lineStart + 1 };
        let value = '';
        let from = position + 1;
        for (;;) {
          const close = buffer.indexOf('"', from);
          const piece = buffer.slice(from, close === -1 ? buffer.length : close);
          const breaks = countBreaks(piece);
          if (close === -1 || breaks > MAX_LINES_IN_QUOTED_FIELD) {
            if (!final && breaks <= MAX_LINES_IN_QUOTED_FIELD) return null;
            throw new StatementFileError(
              `The quote opened at ${at(opened.line, opened.column)} is never closed.`,
              'BROKEN_QUOTE',
              opened.line,
              opened.column,
            );
          }
          if (close + 1 === buffer.length && !final) return null;
          lines += breaks;
          if (breaks > 0) lineStart = from + piece.lastIndexOf('\n') + 1;
          value += piece;
          if (buffer[close + 1] === '"') {
            value += '"';
            from = close + 2;
            continue;
          }
          position = close + 1;
          break;
        }
        cells.push(value);
        const next = buffer[position];
        if (next === '\r' && buffer[position + 1] !== '\n' && position + 1 < buffer.length) {
          throw this.afterQuote(opened, lines, position - lineStart + 1);
        }
        if (next === this.delimiter) {
          position += 1;
          continue;
        }
        if (next === undefined) return { cells, next: position, lines };
        if (next === '\n' || next === '\r') {
          const end = buffer.indexOf('\n', position);
          return { cells, next: end === -1 ? buffer.length : end + 1, lines };
        }
        throw this.afterQuote(opened, lines, position - lineStart + 1);
      }
      const delimiterAt = buffer.indexOf(this.delimiter, position);
      const lineEnd = buffer.indexOf('\n', position);
      const lineStop = lineEnd === -1 ? buffer.length : lineEnd;
      if (delimiterAt !== -1 && delimiterAt < lineStop) {
        cells.push(buffer.slice(position, delimiterAt));
        position = delimiterAt + 1;
        continue;
      }
      cells.push(stripCr(buffer.slice(position, lineStop)));
      return { cells, next: lineStop + 1, lines };
    }
  }

  /** A quote closed too early: most often a quote opened earlier that was never closed. */
  private afterQuote(
    opened: { line: number; column: number },
    lines: number,
    column: number,
  ): StatementFileError {
    const line = this.line + lines - 1;
    return new StatementFileError(
      `The quote opened at ${at(opened.line, opened.column)} is broken: it closes before the text at ${at(line, column)}.`,
      'BROKEN_QUOTE',
      opened.line,
      opened.column,
    );
  }
}

function stripCr(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

function countBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}
