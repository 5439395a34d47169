import { createHash } from 'node:crypto';
import { type FinancialYearFigures, formatInr, type Paise } from '@kosh/domain';
import { CONTENT_SECURITY_POLICY } from '../../plugins/security-headers';

/** What a certificate states besides the figures. */
export type CertificateFacts = Readonly<{
  borrower: string;
  bankName: string;
  branchName: string | null;
  loanType: string;
  accountNumber: string;
  principalAmount: Paise;
  startDate: string;
  issuedOn: string;
  figures: FinancialYearFigures;
}>;

export const CERTIFICATE_NOTE =
  'Interest on a loan for a house property may be claimed under Section 24(b) and principal under Section 80C of the Income-tax Act, 1961; pre-EMI interest is claimed in five equal parts from the year the construction is completed. The limits, and whether you can claim at all, depend on your situation: the tax regime you choose, whether the property is self-occupied or let out, its completion and ownership, and co-borrowers. This statement is computed by Kosh from the loan as you recorded it; it is not issued by the lender and is not tax advice.';

const fyDates = (f: FinancialYearFigures) => `${longDate(f.fy.from)} to ${longDate(f.fy.to)}`;

function longDate(iso: string): string {
  return new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-IN', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** The statement's lines: label, amount. */
function lines(f: FinancialYearFigures): [string, Paise][] {
  const pre = f.preEmiInterest;
  return [
    ['Principal repaid (Section 80C, paid basis)', f.principal],
    ['Interest (Section 24(b), due basis)', f.interest],
    ['GST on interest', f.gst],
    [
      pre.instalment === null
        ? 'Pre-EMI interest deductible this year'
        : `Pre-EMI interest deductible this year (part ${pre.instalment} of 5 of ${formatInr(pre.total)})`,
      pre.deductible,
    ],
    ['Prepayment and foreclosure charges (not interest)', f.charges],
    ['Total', f.principal + f.interest + f.gst + pre.deductible + f.charges],
  ];
}

/** How the figures were counted, and what is left out of them. */
function basisLines(f: FinancialYearFigures): string[] {
  const pre = f.preEmiInterest;
  const out = [
    `Interest is counted on a due basis: the ${f.emisDue} EMIs falling due in the year, with the interest part of its part-payments and foreclosure. Principal is counted on a paid basis: the ${f.emisPaid} EMIs paid in the year (auto-debited EMIs on their due dates) and the principal prepaid.`,
  ];
  if (pre.total > 0)
    out.push(
      pre.completedOn === null
        ? `Pre-EMI interest of ${formatInr(pre.total)} is recorded; it becomes deductible in five equal parts from the year construction is completed, which is not recorded yet.`
        : `Pre-EMI interest of ${formatInr(pre.total)} is recorded; construction was completed on ${longDate(pre.completedOn)}, so one fifth is deductible in each of the five financial years from that year's.`,
    );
  if (f.unpaidEmis.length > 0)
    out.push(
      `EMIs due in the year and not paid: ${f.unpaidEmis
        .map(
          (e) =>
            `EMI ${e.paymentNumber} due ${longDate(e.dueDate)} (${formatInr(e.remainder)} of ${formatInr(e.amount)} unpaid)`,
        )
        .join('; ')}.`,
    );
  return out;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const CSS =
  'body{font-family:Georgia,serif;max-width:720px;margin:2rem auto;padding:0 1.5rem;color:#1c2127;line-height:1.45}' +
  'h1{font-size:1.35rem;text-align:center;margin:0 0 .25rem}.sub{text-align:center;margin:0 0 1.5rem;color:#404854}' +
  'table{width:100%;border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #8f99a8;padding:.4rem .6rem;text-align:left}' +
  'td.amount{text-align:right;font-variant-numeric:tabular-nums}tr.total td{font-weight:bold}' +
  '.note{font-size:.85rem;color:#404854;border-top:1px solid #8f99a8;padding-top:.75rem;margin-top:1.5rem}' +
  '@media print{body{margin:0 auto}@page{size:A4;margin:18mm}}';

/** The app's policy, plus this page's one inline stylesheet allowed by its hash (no script). */
export const CERTIFICATE_CSP = CONTENT_SECURITY_POLICY.replace(
  "style-src 'self'",
  `style-src 'self' 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
);

/** One printable page in the shape of a lender's provisional interest certificate. */
export function certificateHtml(c: CertificateFacts): string {
  const f = c.figures;
  const rows = lines(f)
    .map(
      ([label, amount], i, all) =>
        `<tr${i === all.length - 1 ? ' class="total"' : ''}><td>${escapeHtml(label)}</td><td class="amount">${escapeHtml(formatInr(amount))}</td></tr>`,
    )
    .join('');
  const branch = c.branchName ? `, ${escapeHtml(c.branchName)}` : '';
  return `<!doctype html><html lang="en-IN"><head><meta charset="utf-8"><title>Interest certificate ${escapeHtml(f.fy.label)} · ${escapeHtml(c.accountNumber)}</title><style>${CSS}</style></head><body>
<h1>Interest Certificate for the Financial Year ${escapeHtml(f.fy.label)}</h1>
<p class="sub">${escapeHtml(fyDates(f))}</p>
<p>This statement shows that <strong>${escapeHtml(c.borrower)}</strong> holds the ${escapeHtml(c.loanType)} account <strong>${escapeHtml(c.accountNumber)}</strong> with ${escapeHtml(c.bankName)}${branch}, of ${escapeHtml(formatInr(c.principalAmount))} disbursed on ${escapeHtml(longDate(c.startDate))}, and that the following amounts were repaid in the financial year:</p>
<table><thead><tr><th>Component</th><th>Amount</th></tr></thead><tbody>${rows}</tbody></table>
${basisLines(f)
  .map((line) => `<p>${escapeHtml(line)}</p>`)
  .join('')}
<p>Date: ${escapeHtml(longDate(c.issuedOn))}</p>
<p class="note">${escapeHtml(CERTIFICATE_NOTE)}</p>
</body></html>`;
}

/** PDF text: WinAnsi Helvetica has no rupee sign, so amounts read "Rs. 1,23,456.00". */
const pdfAmount = (paise: Paise) => formatInr(paise).replace('₹', 'Rs. ');
const pdfText = (text: string) =>
  text
    .replace(/[^\x20-\x7e]/g, (c) => (c === '₹' ? 'Rs. ' : c === '·' ? '-' : '?'))
    .replace(/[\\()]/g, (c) => `\\${c}`);

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

/** The same page as a one-page A4 PDF (Helvetica, no embedded fonts). */
export function certificatePdf(c: CertificateFacts): Buffer {
  const f = c.figures;
  const ops: string[] = [];
  let y = 790;
  const text = (x: number, size: number, value: string, font = 'F1') => {
    ops.push(`BT /${font} ${size} Tf ${x} ${y} Td (${pdfText(value)}) Tj ET`);
  };
  text(130, 15, `Interest Certificate for the Financial Year ${f.fy.label}`, 'F2');
  y -= 20;
  text(200, 10, fyDates(f));
  y -= 34;
  const branch = c.branchName ? `, ${c.branchName}` : '';
  const intro = `This statement shows that ${c.borrower} holds the ${c.loanType} account ${c.accountNumber} with ${c.bankName}${branch}, of ${pdfAmount(c.principalAmount)} disbursed on ${longDate(c.startDate)}, and that the following amounts were repaid in the financial year:`;
  for (const line of wrap(intro, 95)) {
    text(56, 10, line);
    y -= 14;
  }
  y -= 10;
  for (const [i, [label, amount]] of lines(f).entries()) {
    const bold = i === lines(f).length - 1 ? 'F2' : 'F1';
    ops.push(`56 ${y - 6} 483 20 re S`);
    text(64, 10, label, bold);
    const value = pdfAmount(amount);
    text(531 - value.length * 5.6, 10, value, bold);
    y -= 20;
  }
  y -= 16;
  for (const paragraph of basisLines(f)) {
    for (const line of wrap(paragraph, 95)) {
      text(56, 10, line);
      y -= 14;
    }
    y -= 4;
  }
  y -= 6;
  text(56, 10, `Date: ${longDate(c.issuedOn)}`);
  y -= 30;
  for (const line of wrap(CERTIFICATE_NOTE, 110)) {
    text(56, 8.5, line);
    y -= 12;
  }
  const stream = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
