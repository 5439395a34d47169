import {
  Callout,
  Card,
  FormGroup,
  H2,
  HTMLSelect,
  Intent,
  Spinner,
  SpinnerSize,
  Switch,
} from '@blueprintjs/core';
import { useState } from 'react';
import { isApiError } from '../api/apiError';
import { PageHeader } from '../app/layout/PageHeader';
import { formatDate, formatMoney, MONTH_NAMES } from '../format';
import { asOfArg, asOfParams, useAsOfMode } from '../history/asOf';
import { ExportCsvButton } from '../ui/ExportCsvButton';
import { StatCard, StatGrid } from '../ui/StatCard';
import '../history/history.css';
import { LedgerTable } from './LedgerTable';
import {
  initialLedgerMonth,
  type LedgerMonth,
  type LedgerPeriod,
  useGetLedgerPeriodsQuery,
  useGetLedgerQuery,
} from './ledgerApi';

/** 5 years before the current year to 4 after (spec section 9). */
function yearChoices(now: Date): number[] {
  const year = now.getFullYear();
  return Array.from({ length: 10 }, (_, i) => year - 5 + i);
}

/** 'Available periods: N months of data', as the spec words it: the months one can pick. */
function periodsText(periods: readonly LedgerPeriod[], years: readonly number[]): string {
  const selectable = periods.filter((period) => years.includes(period.year)).length;
  return `Available periods: ${selectable} months of data`;
}

/**
 * Months with entries in years the Year list does not offer, said apart in a sentence of their
 * own (they are data, but not choices), or null when there are none.
 */
function outsideText(periods: readonly LedgerPeriod[], years: readonly number[]): string | null {
  const outside = periods.filter((period) => !years.includes(period.year));
  if (outside.length === 0) return null;
  const outsideYears = [...new Set(outside.map((period) => period.year))].sort((a, b) => a - b);
  const named =
    outsideYears.length === 1
      ? String(outsideYears[0])
      : `${outsideYears.slice(0, -1).join(', ')} and ${outsideYears.at(-1)}`;
  const months = outside.length === 1 ? 'One more month has' : `${outside.length} more months have`;
  const which = outsideYears.length === 1 ? 'a year' : 'years';
  return `${months} entries in ${named}, ${which} the Year list does not offer.`;
}

const entries = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;

function PageLoading() {
  return (
    <div className="kosh-page-loading" role="status">
      <Spinner size={SpinnerSize.LARGE} aria-hidden />
      <span>Loading ledger data...</span>
    </div>
  );
}

/** /ledger, the Ledger View (spec section 2). */
export function LedgerPage() {
  const asOfMode = useAsOfMode('the ledger');
  const { asOf } = asOfMode;
  const periods = useGetLedgerPeriodsQuery(asOf ?? undefined);
  const [chosen, setChosen] = useState<LedgerMonth | null>(null);
  // Issue 31: the spec's view by default; grouped by category on asking.
  const [grouped, setGrouped] = useState(false);
  const now = new Date();
  const selected: LedgerMonth | null = chosen ?? initialLedgerMonth(periods, now);
  const ledger = useGetLedgerQuery(
    {
      ...(selected ?? { month: 0, year: 0 }),
      ...asOfArg(asOf),
      ...(grouped ? { groupBy: 'category' as const } : {}),
    },
    { skip: selected === null },
  );

  if (selected === null || (ledger.isLoading && !ledger.data)) return <PageLoading />;

  const data = ledger.currentData;
  const failure = ledger.isError
    ? isApiError(ledger.error) && ledger.error.message
      ? ledger.error.message
      : 'Failed to load ledger data'
    : null;
  const net = data?.summary.netBalance ?? 0;
  const monthName = MONTH_NAMES[selected.month - 1] ?? '';

  return (
    <>
      <PageHeader
        title="Ledger View"
        subtitle="Your month of credits, debits and EMIs"
        actions={
          <div className="kosh-header-buttons">
            {asOfMode.control}
            <ExportCsvButton
              url={`/api/ledger.csv?${new URLSearchParams({
                month: String(selected.month),
                year: String(selected.year),
                ...asOfParams(asOf),
              })}`}
              fileName={`ledger-${selected.year}-${String(selected.month).padStart(2, '0')}.csv`}
              what="the ledger"
            />
          </div>
        }
      />
      {asOfMode.banner}
      <Card className="kosh-panel">
        <H2 className="kosh-section-title">Select Period</H2>
        <div className="kosh-toolbar">
          <FormGroup label="Month" labelFor="ledger-month">
            <HTMLSelect
              id="ledger-month"
              fill
              value={selected.month}
              onChange={(e) => setChosen({ ...selected, month: Number(e.target.value) })}
              options={MONTH_NAMES.map((name, i) => ({ value: i + 1, label: name }))}
            />
          </FormGroup>
          <FormGroup label="Year" labelFor="ledger-year">
            <HTMLSelect
              id="ledger-year"
              fill
              value={selected.year}
              onChange={(e) => setChosen({ ...selected, year: Number(e.target.value) })}
              options={yearChoices(now).map((year) => ({ value: year, label: String(year) }))}
            />
          </FormGroup>
          {ledger.isFetching ? <Spinner size={SpinnerSize.SMALL} aria-label="Loading" /> : null}
        </div>
        {periods.data && periods.data.periods.length > 0 ? (
          <p className="kosh-muted" style={{ marginTop: 8, marginBottom: 0 }}>
            {periodsText(periods.data.periods, yearChoices(now))}
          </p>
        ) : null}
        {periods.data && outsideText(periods.data.periods, yearChoices(now)) ? (
          <p className="kosh-muted" style={{ marginTop: 4, marginBottom: 0 }}>
            {outsideText(periods.data.periods, yearChoices(now))}
          </p>
        ) : null}
      </Card>
      {failure ? (
        <Callout intent="danger" icon="error" className="kosh-panel" role="alert">
          {failure}
        </Callout>
      ) : null}
      {data ? (
        <>
          <StatGrid>
            <StatCard
              label="Total Credit"
              icon="arrow-down"
              intent={Intent.SUCCESS}
              value={formatMoney(data.summary.totalCredit)}
              detail={entries(data.credit.transactions.length)}
            />
            <StatCard
              label="Total Debit"
              icon="arrow-up"
              intent={Intent.DANGER}
              value={formatMoney(data.summary.totalDebit)}
              detail={entries(data.debit.transactions.length)}
            />
            <StatCard
              label="Net Balance"
              icon={net >= 0 ? 'trending-up' : 'trending-down'}
              intent={net >= 0 ? Intent.SUCCESS : Intent.WARNING}
              value={formatMoney(net)}
              detail={net >= 0 ? 'Surplus' : 'Deficit'}
            />
            <StatCard
              label="EMI Payments"
              icon="bank-account"
              value={data.summary.emiCount}
              detail="This month"
            />
          </StatGrid>
          <div className="kosh-ledger-heading">
            <H2 className="kosh-section-title">
              Ledger for {data.monthName || monthName} {data.year}
            </H2>
            <span className="kosh-muted">
              {formatDate(data.dateRange.startDate)} to {formatDate(data.dateRange.endDate)}
            </span>
            <Switch
              className="kosh-group-switch"
              label="Group by category"
              checked={grouped}
              onChange={(e) => setGrouped(e.currentTarget.checked)}
            />
          </div>
          <div className="kosh-ledger-grid">
            <Card>
              <LedgerTable
                title="Credit"
                kind="credit"
                side={data.credit}
                empty="No credit transactions for this period"
              />
            </Card>
            <Card>
              <LedgerTable
                title="Debit"
                kind="debit"
                side={data.debit}
                empty="No debit transactions for this period"
              />
            </Card>
          </div>
          <Card className={`kosh-net-card ${net >= 0 ? 'kosh-stat-success' : 'kosh-stat-warning'}`}>
            <H2 className="kosh-section-title">Net Balance</H2>
            <div className="kosh-stat-value">{formatMoney(net)}</div>
            <p className="kosh-muted">
              {net >= 0 ? 'You have a surplus this month' : 'You have a deficit this month'}
            </p>
          </Card>
        </>
      ) : null}
    </>
  );
}
