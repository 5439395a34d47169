import type { Paise } from '../money';

/**
 * One row of a statement as read from the file, before it is compared with the account.
 * `amount` is signed: a credit (deposit) is positive, a debit (withdrawal) negative.
 * An `opening-balance` row only states the balance before the first transaction; an `error` row
 * could not be read and says why, naming the line and column.
 */
export type StatementRow = {
  /** 0-based position among the rows the file produced. */
  index: number;
  /** 1-based line of the file (or sheet row) where the row starts. */
  line: number;
  kind: 'transaction' | 'opening-balance' | 'error';
  date: string | null;
  valueDate: string | null;
  amount: Paise;
  /** The narration exactly as the bank wrote it (line breaks inside it kept). */
  narration: string;
  /** The bank's reference, UTR or cheque number, or an OFX FITID. */
  reference: string | null;
  referenceKind: 'fitid' | 'bank-reference' | null;
  /** The running balance the file states after this row, signed (Dr is negative). */
  balance: Paise | null;
  error: { message: string; line: number; column: number | null } | null;
};

/** A transaction row; the fields are copied one by one (a spread per row showed in the parse profile). */
export function transactionRow(fields: Omit<StatementRow, 'kind' | 'error'>): StatementRow {
  return {
    index: fields.index,
    line: fields.line,
    kind: 'transaction',
    date: fields.date,
    valueDate: fields.valueDate,
    amount: fields.amount,
    narration: fields.narration,
    reference: fields.reference,
    referenceKind: fields.referenceKind,
    balance: fields.balance,
    error: null,
  };
}

export function errorRow(index: number, line: number, column: number | null, message: string): StatementRow {
  return {
    index,
    line,
    kind: 'error',
    date: null,
    valueDate: null,
    amount: 0,
    narration: '',
    reference: null,
    referenceKind: null,
    balance: null,
    error: { message, line, column },
  };
}
