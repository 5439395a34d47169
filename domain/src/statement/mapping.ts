import type { FieldError } from '../shared/errors';

/**
 * Which column of a statement holds what, by header text (compared without case, spaces or
 * punctuation, so "Chq./Ref.No." matches "CHQ REF NO"). Amounts come either as two columns
 * (`debit` and/or `credit`) or as one `amount` column with an optional `drCr` column (without
 * one, a trailing Dr/Cr or a minus sign tells the side; no sign is a credit). A Dr/Cr column
 * belongs to the nearest column of that name right of its amount (`drCr`) or balance
 * (`balanceDrCr`), as in Kotak's two "Dr / Cr" columns.
 */
export type ColumnMapping = {
  date: string;
  narration: string;
  reference?: string;
  valueDate?: string;
  debit?: string;
  credit?: string;
  amount?: string;
  drCr?: string;
  balance?: string;
  balanceDrCr?: string;
};

export type StatementPreset = { id: string; bank: string; dates: string; mapping: ColumnMapping };

/** The five layouts of spec/statement-formats.md; more specific layouts come first. */
export const STATEMENT_PRESETS: readonly StatementPreset[] = [
  {
    id: 'icici',
    bank: 'ICICI Bank',
    dates: 'dd/mm/yyyy or dd-mm-yyyy',
    mapping: {
      date: 'Transaction Date',
      valueDate: 'Value Date',
      reference: 'Cheque Number',
      narration: 'Transaction Remarks',
      debit: 'Withdrawal Amount (INR )',
      credit: 'Deposit Amount (INR )',
      balance: 'Balance (INR )',
    },
  },
  {
    id: 'kotak',
    bank: 'Kotak Mahindra Bank',
    dates: 'dd-mm-yyyy',
    mapping: {
      date: 'Transaction Date',
      valueDate: 'Value Date',
      narration: 'Description',
      reference: 'Chq / Ref No.',
      amount: 'Amount',
      drCr: 'Dr / Cr',
      balance: 'Balance',
      balanceDrCr: 'Dr / Cr',
    },
  },
  {
    id: 'hdfc',
    bank: 'HDFC Bank',
    dates: 'dd/mm/yy',
    mapping: {
      date: 'Date',
      narration: 'Narration',
      reference: 'Chq./Ref.No.',
      valueDate: 'Value Dt',
      debit: 'Withdrawal Amt.',
      credit: 'Deposit Amt.',
      balance: 'Closing Balance',
    },
  },
  {
    id: 'sbi',
    bank: 'State Bank of India',
    dates: 'dd Mon yyyy or dd-Mon-yy',
    mapping: {
      date: 'Txn Date',
      valueDate: 'Value Date',
      narration: 'Description',
      reference: 'Ref No./Cheque No.',
      debit: 'Debit',
      credit: 'Credit',
      balance: 'Balance',
    },
  },
  {
    id: 'axis',
    bank: 'Axis Bank',
    dates: 'dd-mm-yyyy',
    mapping: {
      date: 'Tran Date',
      reference: 'CHQNO',
      narration: 'PARTICULARS',
      debit: 'DR',
      credit: 'CR',
      balance: 'BAL',
    },
  },
];

const FIELDS = [
  'date',
  'narration',
  'reference',
  'valueDate',
  'debit',
  'credit',
  'amount',
  'drCr',
  'balance',
  'balanceDrCr',
] as const;
export type MappedField = (typeof FIELDS)[number];

/** The mapping's problems, as per-field errors (`mapping.date`, …); empty when it is usable. */
export function validateColumnMapping(mapping: Partial<Record<MappedField, unknown>>): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of FIELDS) {
    const value = mapping[field];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '' || value.length > 100)) {
      errors.push({ field: `mapping.${field}`, message: 'Must be a column header of 1 to 100 characters' });
    }
  }
  if (typeof mapping.date !== 'string')
    errors.push({ field: 'mapping.date', message: 'Choose the date column' });
  if (typeof mapping.narration !== 'string') {
    errors.push({ field: 'mapping.narration', message: 'Choose the narration column' });
  }
  if (mapping.amount === undefined && mapping.debit === undefined && mapping.credit === undefined) {
    errors.push({ field: 'mapping.amount', message: 'Choose an amount column, or debit and credit columns' });
  }
  if (mapping.amount !== undefined && (mapping.debit !== undefined || mapping.credit !== undefined)) {
    errors.push({
      field: 'mapping.amount',
      message: 'Choose one amount column or debit and credit columns, not both',
    });
  }
  if (mapping.drCr !== undefined && mapping.amount === undefined) {
    errors.push({ field: 'mapping.drCr', message: 'A Dr/Cr column needs an amount column' });
  }
  if (mapping.balanceDrCr !== undefined && mapping.balance === undefined) {
    errors.push({ field: 'mapping.balanceDrCr', message: 'A Dr/Cr column needs a balance column' });
  }
  return errors;
}

/** Header text as compared: lower case, letters and digits only. */
export function headerKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * A header row's shape, as saved mappings are keyed: each cell as compared (`headerKey`), trailing
 * empty cells dropped (a spreadsheet's export may add a few).
 */
export function headerShapeKey(cells: readonly string[]): string {
  const keys = cells.map(headerKey);
  while (keys.length > 0 && keys[keys.length - 1] === '') keys.pop();
  return keys.join('|');
}

/** Whether two mappings name the same columns for every field (as headers are compared). */
export function sameColumnMapping(a: ColumnMapping, b: ColumnMapping): boolean {
  return FIELDS.every((field) => headerKey(a[field] ?? '') === headerKey(b[field] ?? ''));
}

/** The 0-based cell index of each mapped field in a header row. */
export type ResolvedColumns = Partial<Record<MappedField, number>> & { date: number; narration: number };

/** Where each mapped column sits in `header`, or null when the row is not this mapping's header. */
export function resolveColumns(mapping: ColumnMapping, header: readonly string[]): ResolvedColumns | null {
  const keys = header.map(headerKey);
  const find = (name: string | undefined, after = -1): number | undefined => {
    if (name === undefined) return undefined;
    const index = keys.indexOf(headerKey(name), after + 1);
    return index === -1 ? -1 : index;
  };
  const resolved: Partial<Record<MappedField, number>> = {};
  for (const field of FIELDS) {
    const after = field === 'drCr' ? resolved.amount : field === 'balanceDrCr' ? resolved.balance : undefined;
    const index = find(mapping[field], after);
    if (index === -1) return null;
    if (index !== undefined) resolved[field] = index;
  }
  return resolved as ResolvedColumns;
}
