import { StatementFileError } from './errors';

/** What a file is, told by its bytes and never by its name. */
export type FileKind = 'xlsx' | 'text';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d];

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

export const SAVE_AS_XLSX_OR_CSV = 'Save the statement as .xlsx or CSV';

/**
 * Reads the first bytes of a file (the first chunk is enough, 4 KB or more) and says whether it
 * is an `.xlsx` workbook (a ZIP) or text, or refuses it: empty, a binary `.xls` (BIFF inside an
 * OLE2 container, which no maintained library reads safely), PDF, or other binary data (a NUL
 * byte, or many control characters, where text has none). A "`.xls`" that is really
 * tab-separated text is text.
 */
export function sniffFileKind(head: Uint8Array): FileKind {
  if (head.length === 0) throw new StatementFileError('The file is empty.', 'EMPTY_FILE');
  if (startsWith(head, ZIP)) return 'xlsx';
  if (startsWith(head, OLE2)) {
    throw new StatementFileError(
      `This is a binary Excel 97-2003 (.xls) file. ${SAVE_AS_XLSX_OR_CSV}.`,
      'UNSUPPORTED_FORMAT',
    );
  }
  if (startsWith(head, PDF)) {
    throw new StatementFileError(
      `PDF statements cannot be read. ${SAVE_AS_XLSX_OR_CSV}.`,
      'UNSUPPORTED_FORMAT',
    );
  }
  const sample = head.subarray(0, 8192);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) throw binary();
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) control += 1;
  }
  if (control > sample.length / 100) throw binary();
  return 'text';
}

function binary(): StatementFileError {
  return new StatementFileError(
    `The file holds binary data, not a statement. ${SAVE_AS_XLSX_OR_CSV}.`,
    'BINARY_FILE',
  );
}

/** The layout of a statement's text. */
export type TextFormat = 'ofx' | 'qif' | 'csv' | 'tsv' | 'html';

/** Tells OFX/QFX, QIF, HTML (an ".xls" some banks send) and comma- or tab-separated text apart. */
export function sniffTextFormat(text: string): TextFormat {
  const head = text.slice(0, 4096);
  if (/OFXHEADER\s*[:=]|<OFX>|<\?OFX/i.test(head)) return 'ofx';
  if (/^\s*!(Type|Account|Option)[:\s]/i.test(head)) return 'qif';
  if (/^\s*(<!DOCTYPE html|<html|<table)/i.test(head)) return 'html';
  let tabLines = 0;
  let commaLines = 0;
  for (const line of head.split(/\r?\n/).slice(0, 60)) {
    if (line.split('\t').length >= 3) tabLines += 1;
    if (line.split(',').length >= 3) commaLines += 1;
  }
  return tabLines > commaLines ? 'tsv' : 'csv';
}
