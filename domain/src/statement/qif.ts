import { parseStatementAmount } from './amount';
import { parseStatementDate } from './dates';
import { At, at, StatementFileError } from './errors';
import { errorRow, type StatementRow, transactionRow } from './row';

/**
 * Reads QIF: records of lines `D` (date, day first), `T` or `U` (signed amount), `P` (payee),
 * `M` (memo), `N` (number), each record ended by `^`. QIF has no ids, so rows are told apart by
 * their fingerprint alone. Header lines (`!Type:Bank`, `!Account`) are skipped.
 */
export function parseQif(text: string): StatementRow[] {
  const rows: StatementRow[] = [];
  let record: Record<string, string> = {};
  let recordLine = 0;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const content = raw.trim();
    if (content === '' || content.startsWith('!')) return;
    if (content.startsWith('^')) {
      if (Object.keys(record).length > 0) rows.push(qifRow(rows.length, recordLine, record));
      record = {};
      return;
    }
    if (Object.keys(record).length === 0) recordLine = line;
    const code = content[0]!.toUpperCase();
    const value = content.slice(1).trim();
    if (code === 'U' && record.T !== undefined) return;
    record[code === 'U' ? 'T' : code] = value;
  });
  if (Object.keys(record).length > 0) {
    throw new StatementFileError(
      `The record that starts at ${at(recordLine)} is not ended by a "^" line.`,
      'BAD_QIF',
      recordLine,
    );
  }
  return rows;
}

function qifRow(index: number, line: number, record: Record<string, string>): StatementRow {
  const date = parseStatementDate(record.D ?? '');
  if (date === null) {
    return errorRow(index, line, null, `${At(line)}: D "${record.D ?? ''}" is not a day-first date`);
  }
  let amount: number | null = null;
  try {
    amount = parseStatementAmount(record.T ?? '')?.paise ?? null;
  } catch {
    amount = null;
  }
  if (amount === null) {
    return errorRow(index, line, null, `${At(line)}: T "${record.T ?? ''}" is not an amount`);
  }
  const narration = [record.P, record.M].filter((part) => part !== undefined && part !== '').join(' ');
  const number = record.N?.trim() || null;
  return transactionRow({
    index,
    line,
    date,
    valueDate: null,
    amount,
    narration,
    reference: number,
    referenceKind: number ? 'bank-reference' : null,
    balance: null,
  });
}
