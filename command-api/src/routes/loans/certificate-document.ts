import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { type FinancialYearFigures, formatInr, type Paise } from '@kosh/domain';
import PDFDocument from 'pdfkit';
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
  'td.amount,th.amount{text-align:right;font-variant-numeric:tabular-nums}tr.total td{font-weight:bold}' +
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
<table><thead><tr><th>Component</th><th class="amount">Amount</th></tr></thead><tbody>${rows}</tbody></table>
${basisLines(f)
  .map((line) => `<p>${escapeHtml(line)}</p>`)
  .join('')}
<p>Date: ${escapeHtml(longDate(c.issuedOn))}</p>
<p class="note">${escapeHtml(CERTIFICATE_NOTE)}</p>
</body></html>`;
}

const require = createRequire(import.meta.url);
/** DejaVu Sans has the rupee sign (U+20B9) that PDF's standard fonts lack; the PDF embeds a subset. */
const FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
};

/**
 * The same statement as the printable page, as a one-page A4 PDF: titles centred, amounts
 * right-aligned in their column, ₹ as the page prints it (DejaVu Sans, embedded).
 */
export function certificatePdf(c: CertificateFacts): Promise<Buffer> {
  const f = c.figures;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `Interest certificate ${f.fy.label} · ${c.accountNumber}`, Producer: 'Kosh' },
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc
    .font('bold')
    .fontSize(14)
    .text(`Interest Certificate for the Financial Year ${f.fy.label}`, { align: 'center' });
  doc.font('regular').fontSize(10).fillColor('#404854').text(fyDates(f), { align: 'center' });
  doc.moveDown(1.5).fillColor('#1c2127');
  const branch = c.branchName ? `, ${c.branchName}` : '';
  doc.text(
    `This statement shows that ${c.borrower} holds the ${c.loanType} account ${c.accountNumber} with ${c.bankName}${branch}, of ${formatInr(c.principalAmount)} disbursed on ${longDate(c.startDate)}, and that the following amounts were repaid in the financial year:`,
    { width, align: 'left' },
  );
  doc.moveDown();
  const all = lines(f);
  const amountWidth = 130;
  for (const [i, [label, amount]] of all.entries()) {
    const y = doc.y;
    const font = i === all.length - 1 ? 'bold' : 'regular';
    doc.font(font).fontSize(10);
    const height = Math.max(doc.heightOfString(label, { width: width - amountWidth - 16 }), 12) + 10;
    doc.rect(left, y, width, height).strokeColor('#8f99a8').stroke();
    doc.text(label, left + 8, y + 5, { width: width - amountWidth - 16 });
    doc.text(formatInr(amount), left + width - amountWidth - 8, y + 5, {
      width: amountWidth,
      align: 'right',
    });
    doc.x = left;
    doc.y = y + height;
  }
  doc.moveDown().font('regular').fontSize(10);
  for (const paragraph of basisLines(f)) doc.text(paragraph, left, doc.y, { width }).moveDown(0.5);
  doc.moveDown(0.5).text(`Date: ${longDate(c.issuedOn)}`);
  doc.moveDown(1.5).fontSize(8.5).fillColor('#404854').text(CERTIFICATE_NOTE, { width });
  doc.end();
  return done;
}
