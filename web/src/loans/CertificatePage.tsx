import { Button, Callout, Card, FormGroup, H2, HTMLSelect, HTMLTable, Spinner } from '@blueprintjs/core';
import { useState } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import { useAppSelector } from '../app/store';
import { formatDate, formatMoney, todayIso } from '../format';
import { toast } from '../toaster';
import { defaultFinancialYear, financialYearDates, financialYearsOf } from './financialYear';
import { LoanUnavailable } from './LoanUnavailable';
import { bankLabel } from './loanDisplay';
import { useGetCertificateQuery, useGetLoanQuery } from './loansApi';
import '../ui/money-screens.css';
import './loan-changes.css';

type Format = 'html' | 'pdf';

/**
 * The printable page and the PDF need the session's token, which a plain link cannot carry: they
 * are fetched with it and handed to the browser as a file.
 */
async function download(token: string | null, url: string, fileName: string): Promise<boolean> {
  const answer = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} }).catch(
    () => null,
  );
  if (!answer?.ok) return false;
  const file = URL.createObjectURL(await answer.blob());
  const link = document.createElement('a');
  link.href = file;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(file), 60_000);
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
    const ok = await download(
      token,
      `/api/loans/${id}/certificate?fy=${fy}&format=${format}`,
      `interest-certificate-${fy}-${accountNumber}.${format}`,
    );
    setBusy(null);
    if (!ok) toast.error('Failed to download the interest certificate');
  };

  const c = certificate.data;
  const rows: [string, string][] = c
    ? [
        ['Interest paid (Section 24(b))', formatMoney(c.interest)],
        ['Pre-EMI interest (shown apart)', formatMoney(c.preEmiInterest)],
        ['Principal repaid (Section 80C)', formatMoney(c.principal)],
        ['GST on interest', formatMoney(c.gst)],
        ['Prepayment and foreclosure charges', formatMoney(c.charges)],
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
      </div>
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
                  <th scope="row">EMIs counted</th>
                  <td className="kosh-num">{c.emisCounted}</td>
                </tr>
              </tbody>
            </HTMLTable>
            <p className="kosh-muted">
              {c.basis === 'paid'
                ? 'Counted from the EMIs marked paid, in the year they were paid.'
                : 'No EMI of this loan is marked paid: counted from the schedule, on the due dates.'}
            </p>
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
