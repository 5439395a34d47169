import { Button, Callout, Card, FormGroup, H2, HTMLSelect, HTMLTable, Spinner } from '@blueprintjs/core';
import { useState } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { downloadWithToken } from '../api/download';
import { PageHeader } from '../app/layout/PageHeader';
import { useAppSelector } from '../app/store';
import { formatDate, formatMoney, todayIso } from '../format';
import { toast } from '../toaster';
import { ConstructionCompletedDialog, PreEmiInterestDialog } from './changes/PreEmiDialogs';
import { defaultFinancialYear, financialYearDates, financialYearsOf } from './financialYear';
import { LoanUnavailable } from './LoanUnavailable';
import { bankLabel } from './loanDisplay';
import { useGetCertificateQuery, useGetLoanQuery } from './loansApi';
import '../ui/money-screens.css';
import './loan-changes.css';

type Format = 'html' | 'pdf';

/**
 * The printable page opened as a page in a new tab. A plain link cannot carry the token, so the
 * page is fetched with it and written into a blank tab; that tab inherits this app's
 * Content-Security-Policy, which refuses the page's inline stylesheet, so its rules are adopted
 * as a constructed stylesheet (CSSOM, which the policy allows).
 */
async function openPrintable(token: string | null, url: string): Promise<boolean> {
  const tab = window.open('', '_blank');
  if (!tab) return false;
  const answer = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} }).catch(
    () => null,
  );
  if (!answer?.ok) {
    tab.close();
    return false;
  }
  const html = await answer.text();
  const page = new DOMParser().parseFromString(html, 'text/html');
  const css = [...page.querySelectorAll('style')].map((style) => style.textContent ?? '').join('\n');
  tab.document.open();
  tab.document.write(html);
  tab.document.close();
  const sheet = new (tab as unknown as typeof globalThis).CSSStyleSheet();
  sheet.replaceSync(css);
  tab.document.adoptedStyleSheets = [sheet];
  return true;
}

/** /loans/{id}/certificate: the financial year's interest and principal for the tax return. */
export function CertificatePage() {
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const search = useSearch();
  const token = useAppSelector((state) => state.session.token);
  const loan = useGetLoanQuery(id);
  const today = todayIso();
  const years = loan.data
    ? financialYearsOf(loan.data.loan.startDate, loan.data.loan.closedOn ?? loan.data.loan.endDate, today)
    : [];
  const asked = new URLSearchParams(search).get('fy');
  const fy = asked && years.includes(asked) ? asked : defaultFinancialYear(years, today);
  const certificate = useGetCertificateQuery({ id, fy: fy ?? '' }, { skip: !fy });
  const [busy, setBusy] = useState<Format | null>(null);
  const [dialog, setDialog] = useState<'pre-emi' | 'construction' | null>(null);

  if (loan.isError)
    return (
      <LoanUnavailable
        title="Interest Certificate"
        error={loan.error}
        fallback="Failed to load loan details"
      />
    );
  if (!loan.data || !fy) return <Spinner aria-label="Loading certificate" />;
  const { accountNumber } = loan.data.loan;
  const dates = financialYearDates(fy);

  const fetchFile = async (format: Format) => {
    setBusy(format);
    if (format === 'html') {
      const opened = await openPrintable(token, `/api/loans/${id}/certificate?fy=${fy}&format=html`);
      setBusy(null);
      if (!opened) toast.error('Failed to open the printable page');
      return;
    }
    const done = await downloadWithToken(
      token,
      `/api/loans/${id}/certificate?fy=${fy}&format=${format}`,
      `interest-certificate-${fy}-${accountNumber}.${format}`,
    );
    setBusy(null);
    if (done !== true) toast.error('Failed to download the interest certificate');
  };

  const c = certificate.data;
  const rows: [string, string][] = c
    ? [
        ['Interest (Section 24(b), due basis)', formatMoney(c.interest)],
        ['Principal repaid (Section 80C, paid basis)', formatMoney(c.principal)],
        ['GST on interest', formatMoney(c.gst)],
        [
          c.preEmiInterest.instalment === null
            ? 'Pre-EMI interest deductible this year'
            : `Pre-EMI interest deductible this year (part ${c.preEmiInterest.instalment} of 5)`,
          formatMoney(c.preEmiInterest.deductible),
        ],
        ['Prepayment and foreclosure charges (not interest)', formatMoney(c.charges)],
      ]
    : [];

  return (
    <>
      <PageHeader
        title="Interest Certificate"
        subtitle={`${accountNumber} · ${bankLabel(loan.data.loan.bank)}`}
        actions={
          <div className="kosh-header-buttons">
            <Button icon="arrow-left" text="Loan Details" onClick={() => navigate(`/loans/${id}`)} />
          </div>
        }
      />
      <div className="kosh-certificate-toolbar">
        <FormGroup label="Financial year (April–March)" labelFor="certificate-fy">
          <HTMLSelect
            id="certificate-fy"
            value={fy}
            onChange={(event) => navigate(`/loans/${id}/certificate?fy=${event.currentTarget.value}`)}
            options={years.map((year) => ({ value: year, label: `FY ${year}` }))}
          />
        </FormGroup>
        <Button
          icon="print"
          text="Printable Page (HTML)"
          loading={busy === 'html'}
          onClick={() => fetchFile('html')}
        />
        <Button icon="document" text="PDF" loading={busy === 'pdf'} onClick={() => fetchFile('pdf')} />
        <Button icon="home" text="Record Pre-EMI Interest" onClick={() => setDialog('pre-emi')} />
        <Button icon="office" text="Construction Completed" onClick={() => setDialog('construction')} />
      </div>
      {dialog === 'pre-emi' ? <PreEmiInterestDialog loanId={id} onClose={() => setDialog(null)} /> : null}
      {dialog === 'construction' ? (
        <ConstructionCompletedDialog loanId={id} onClose={() => setDialog(null)} />
      ) : null}
      <Card role="region" aria-label={`Interest certificate FY ${fy}`}>
        <H2 className="kosh-section-title">
          FY {fy}: {formatDate(dates.from)} to {formatDate(dates.to)}
        </H2>
        {certificate.isFetching && !c ? (
          <Spinner aria-label="Loading figures" />
        ) : c ? (
          <>
            <p>
              {c.borrower ? `${c.borrower}, ` : ''}
              {c.loanType} account {c.accountNumber} with {c.bankName}.
            </p>
            <HTMLTable compact className="kosh-certificate-table" aria-label="Certificate figures">
              <tbody>
                {rows.map(([label, value]) => (
                  <tr key={label}>
                    <th scope="row">{label}</th>
                    <td className="kosh-num">{value}</td>
                  </tr>
                ))}
                <tr className="kosh-total">
                  <th scope="row">EMIs due in the year / paid in it</th>
                  <td className="kosh-num">
                    {c.emisDue} / {c.emisPaid}
                  </td>
                </tr>
              </tbody>
            </HTMLTable>
            <p className="kosh-muted">
              Interest counts every EMI falling due in the year (due basis); principal counts the EMIs paid in
              it, auto-debited EMIs on their due dates (paid basis).
            </p>
            {c.preEmiInterest.total > 0 && (
              <Callout icon="home" title="Pre-EMI interest" className="kosh-certificate-note">
                {formatMoney(c.preEmiInterest.total)} of pre-EMI interest is recorded.{' '}
                {c.preEmiInterest.constructionCompletedOn
                  ? `Construction was completed on ${formatDate(c.preEmiInterest.constructionCompletedOn)}: one fifth is deductible in each of the five financial years from that year's.`
                  : 'It becomes deductible in five equal parts once construction is completed; record the date on the loan.'}
              </Callout>
            )}
            {c.unpaidEmis.length > 0 && (
              <HTMLTable
                compact
                className="kosh-certificate-table"
                aria-label="EMIs due in the year and not paid"
              >
                <thead>
                  <tr>
                    <th>EMI due in the year and not paid</th>
                    <th>Due date</th>
                    <th className="kosh-num">Unpaid</th>
                  </tr>
                </thead>
                <tbody>
                  {c.unpaidEmis.map((emi) => (
                    <tr key={emi.paymentNumber}>
                      <td>EMI {emi.paymentNumber}</td>
                      <td>{formatDate(emi.dueDate)}</td>
                      <td className="kosh-num">
                        {formatMoney(emi.remainder)} of {formatMoney(emi.amount)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            )}
            <Callout icon="info-sign" className="kosh-certificate-note" title="Please note">
              {c.note}
            </Callout>
          </>
        ) : (
          <p>Failed to load the interest certificate</p>
        )}
      </Card>
    </>
  );
}
