import { type Paise, toPaise } from '../money';
import { At, at, StatementFileError } from './errors';
import { errorRow, type StatementRow, transactionRow } from './row';

export type OfxStatement = {
  rows: StatementRow[];
  /** LEDGERBAL: the balance the bank states, and the date it is as of. */
  ledgerBalance: { amount: Paise; date: string | null } | null;
  accountId: string | null;
  currency: string | null;
};

const TAG = /<(\/?)([A-Za-z0-9.]+)\s*>([^<]*)/g;

/**
 * Reads OFX or QFX, both the SGML flavour (OFX 1.x, leaf elements without closing tags) and the
 * XML flavour (OFX 2.x). Each STMTTRN becomes a row with its FITID as reference, DTPOSTED as
 * date, TRNAMT as signed amount and NAME / MEMO as narration; LEDGERBAL is the stated balance.
 */
export function parseOfx(text: string): OfxStatement {
  if (!/<OFX>/i.test(text)) throw new StatementFileError('The OFX file has no <OFX> element.', 'BAD_OFX');
  const rows: StatementRow[] = [];
  let transaction: Record<string, string> | null = null;
  let transactionLine = 0;
  let ledger: Record<string, string> | null = null;
  let inLedger = false;
  let accountId: string | null = null;
  let currency: string | null = null;
  let line = 1;
  let counted = 0;
  for (const match of text.matchAll(TAG)) {
    line += countBreaks(text, counted, match.index);
    counted = match.index;
    const closing = match[1] === '/';
    const name = match[2]!.toUpperCase();
    const value = decodeEntities(match[3]!.trim());
    if (name === 'STMTTRN') {
      if (closing && transaction) {
        rows.push(ofxRow(rows.length, transactionLine, transaction));
        transaction = null;
      } else if (!closing) {
        transaction = {};
        transactionLine = line;
      }
    } else if (name === 'LEDGERBAL') {
      inLedger = !closing;
      if (!closing) ledger = {};
    } else if (!closing && value !== '') {
      if (transaction) transaction[name] = value;
      else if (inLedger && ledger) ledger[name] = value;
      else if (name === 'ACCTID') accountId = value;
      else if (name === 'CURDEF') currency = value;
    }
  }
  if (transaction) {
    throw new StatementFileError(
      `The transaction that starts at ${at(transactionLine)} is never closed (</STMTTRN>).`,
      'BAD_OFX',
      transactionLine,
    );
  }
  let ledgerBalance: OfxStatement['ledgerBalance'] = null;
  if (ledger?.BALAMT !== undefined) {
    const amount = ofxAmount(ledger.BALAMT);
    if (amount !== null) ledgerBalance = { amount, date: ofxDate(ledger.DTASOF ?? '') };
  }
  return { rows, ledgerBalance, accountId, currency };
}

function ofxRow(index: number, line: number, fields: Record<string, string>): StatementRow {
  const date = ofxDate(fields.DTPOSTED ?? '');
  if (date === null) {
    return errorRow(index, line, null, `${At(line)}: DTPOSTED "${fields.DTPOSTED ?? ''}" is not a date`);
  }
  const amount = ofxAmount(fields.TRNAMT ?? '');
  if (amount === null) {
    return errorRow(index, line, null, `${At(line)}: TRNAMT "${fields.TRNAMT ?? ''}" is not an amount`);
  }
  const fitid = fields.FITID ?? null;
  const narration = [fields.NAME, fields.MEMO].filter((part) => part !== undefined && part !== '').join(' ');
  return transactionRow({
    index,
    line,
    date,
    valueDate: ofxDate(fields.DTUSER ?? ''),
    amount,
    narration,
    reference: fitid ?? fields.REFNUM ?? fields.CHECKNUM ?? null,
    referenceKind: fitid ? 'fitid' : fields.REFNUM || fields.CHECKNUM ? 'bank-reference' : null,
    balance: null,
  });
}

/** OFX dates are YYYYMMDD[HHMMSS[.XXX]][[offset:TZ]]; the calendar date as the bank wrote it. */
function ofxDate(text: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})/.exec(text);
  if (!match) return null;
  const date = `${match[1]}-${match[2]}-${match[3]}`;
  const month = Number(match[2]);
  const day = Number(match[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && !Number.isNaN(Date.parse(date)) ? date : null;
}

/** TRNAMT: a signed decimal, with a point or (in some locales) a comma. */
function ofxAmount(text: string): Paise | null {
  const decimal = text.includes('.') ? text : text.replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(decimal)) return null;
  return toPaise(decimal);
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function countBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}
