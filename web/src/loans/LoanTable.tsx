import { Button, HTMLTable, Tag } from '@blueprintjs/core';
import { Link, useLocation } from 'wouter';
import { useReadOnly } from '../audit/auditMode';
import { formatDate, formatMoney, todayIso } from '../format';
import { withAsOf } from '../history/asOf';
import { TableScroll } from '../ui/TableScroll';
import { closingLabel, currentRateLabel, STATUS_INTENT, statusOf } from './loanDisplay';
import type { Loan } from './loansApi';

type Props = {
  loans: Loan[];
  loading: boolean;
  onGenerate: (loan: Loan) => void;
  onDelete: (loan: Loan) => void;
  /** As-of mode: links keep the date, write actions go. */
  asOf: string | null;
};

export function LoanTable({ loans, loading, onGenerate, onDelete, asOf }: Props) {
  const today = todayIso();
  return (
    <TableScroll label="Loans table">
      <HTMLTable striped interactive className="kosh-stack" aria-label="Loans" aria-busy={loading}>
        <thead>
          <tr>
            <th>Account Number</th>
            <th>Bank</th>
            <th>Loan Type</th>
            <th className="kosh-num">Principal Amount</th>
            <th>Interest Rate</th>
            <th>Start Date</th>
            <th>End Date</th>
            <th>Status</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {loans.map((loan) => (
            <LoanRow
              key={loan.id}
              loan={loan}
              today={today}
              onGenerate={onGenerate}
              onDelete={onDelete}
              asOf={asOf}
            />
          ))}
        </tbody>
      </HTMLTable>
    </TableScroll>
  );
}

type RowProps = Omit<Props, 'loans' | 'loading'> & { loan: Loan; today: string };

function LoanRow({ loan, today, onGenerate, onDelete, asOf }: RowProps) {
  const status = statusOf(loan, today);
  return (
    <tr>
      <td data-label="Account Number">
        <div>
          <Link href={withAsOf(`/loans/${loan.id}`, asOf)} className="kosh-strong">
            {loan.accountNumber}
          </Link>
          {loan.shortDetail ? (
            <div className="kosh-muted kosh-small kosh-truncate">{loan.shortDetail}</div>
          ) : null}
        </div>
      </td>
      <td data-label="Bank">
        <div>
          <div>{loan.bank?.bankName ?? '—'}</div>
          {loan.bank?.branchName ? <div className="kosh-muted kosh-small">{loan.bank.branchName}</div> : null}
        </div>
      </td>
      <td data-label="Loan Type">{loan.loanType?.typeName ?? '—'}</td>
      <td data-label="Principal Amount" className="kosh-num">
        {formatMoney(Number(loan.principalAmount))}
      </td>
      <td data-label="Interest Rate">{currentRateLabel(loan)}</td>
      <td data-label="Start Date">{formatDate(loan.startDate)}</td>
      <td data-label="End Date">{closingLabel(loan)}</td>
      <td data-label="Status">
        <Tag intent={STATUS_INTENT[status]} round>
          {status}
        </Tag>
      </td>
      <td data-label="Actions">
        <div className="kosh-actions">
          <LinkButton
            href={withAsOf(`/loans/${loan.id}`, asOf)}
            icon="eye-open"
            label={`View loan ${loan.accountNumber}`}
          />
          {asOf ? null : <LoanWriteActions loan={loan} onGenerate={onGenerate} onDelete={onDelete} />}
        </div>
      </td>
    </tr>
  );
}

function LoanWriteActions({ loan, onGenerate, onDelete }: Omit<RowProps, 'today' | 'asOf'>) {
  if (useReadOnly()) return null;
  return (
    <>
      <LinkButton href={`/loans/${loan.id}/edit`} icon="edit" label={`Edit loan ${loan.accountNumber}`} />
      <Button
        variant="minimal"
        icon="calendar"
        aria-label={`Generate schedule for loan ${loan.accountNumber}`}
        title="Generate amortization schedule"
        onClick={() => onGenerate(loan)}
      />
      <Button
        variant="minimal"
        icon="trash"
        intent="danger"
        aria-label={`Delete loan ${loan.accountNumber}`}
        title="Delete"
        onClick={() => onDelete(loan)}
      />
    </>
  );
}

function LinkButton({ href, icon, label }: { href: string; icon: 'eye-open' | 'edit'; label: string }) {
  const [, navigate] = useLocation();
  return (
    <Button variant="minimal" icon={icon} aria-label={label} title={label} onClick={() => navigate(href)} />
  );
}
