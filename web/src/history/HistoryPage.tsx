import { Button, Card, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { PageHeader } from '../app/layout/PageHeader';
import '../ui/money-screens.css';
import { useGetAccountsQuery } from '../accounts/accountsApi';
import { useGetLoansQuery } from '../loans/loansApi';
import './history.css';
import { NO_TIMELINE_FILTERS, type TimelineFilters, useGetTimelineQuery } from './historyApi';
import { eventLabel, TYPE_GROUPS, typeLabel } from './historyDisplay';
import { Timeline } from './Timeline';

/** The Stream choices' loans: the largest page the loans list serves (5, 10, 25 or 50). */
const ALL_LOANS = { page: 1, limit: 50, search: '', bankId: '' };

/** The Stream choices: everything, the profile, each loan, and an item picked from an entry. */
function streamOptions(
  loans: readonly { id: string; accountNumber: string }[],
  accounts: readonly { id: string; name: string }[],
  current: string,
) {
  const options = [
    { value: '', label: 'Everything' },
    { value: 'profile', label: 'Profile' },
    ...loans.map((loan) => ({ value: `loan:${loan.id}`, label: `Loan ${loan.accountNumber}` })),
    ...accounts.map((account) => ({ value: `account:${account.id}`, label: `Account ${account.name}` })),
  ];
  if (current && !options.some((o) => o.value === current)) {
    const [kind = '', id = ''] = current.split(':');
    options.push({ value: current, label: `${typeLabel(kind)} ${id.slice(0, 8)}…` });
  }
  return options;
}

/** /history: the caller's timeline, newest first, with filters and infinite scroll (issue 14). */
export function HistoryPage() {
  const [typed, setTyped] = useState<TimelineFilters>(NO_TIMELINE_FILTERS);
  const [applied, setApplied] = useState<TimelineFilters>(NO_TIMELINE_FILTERS);
  const [cursor, setCursor] = useState<string | null>(null);
  const loans = useGetLoansQuery(ALL_LOANS);
  const accounts = useGetAccountsQuery(undefined);
  const timeline = useGetTimelineQuery({ filters: applied, cursor }, { refetchOnMountOrArgChange: true });
  const badRange = typed.from !== '' && typed.to !== '' && typed.to < typed.from;

  const apply = (filters: TimelineFilters) => {
    setTyped(filters);
    setApplied(filters);
    setCursor(null);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!badRange) apply(typed);
  };
  const set = (change: Partial<TimelineFilters>) => setTyped({ ...typed, ...change });
  const data = timeline.currentData ?? timeline.data;

  return (
    <>
      <PageHeader title="History" subtitle="Everything recorded on your account, newest first" />
      <Card className="kosh-panel">
        <form className="kosh-history-filters" onSubmit={submit} aria-label="History filters">
          <FormGroup label="Stream" labelFor="history-stream">
            <HTMLSelect
              id="history-stream"
              fill
              value={typed.stream}
              onChange={(e) => set({ stream: e.target.value })}
              options={streamOptions(loans.data?.loans ?? [], accounts.data ?? [], typed.stream)}
            />
          </FormGroup>
          <FormGroup label="Type" labelFor="history-type">
            <HTMLSelect
              id="history-type"
              fill
              value={typed.type}
              onChange={(e) => set({ type: e.target.value })}
            >
              <option value="">All types</option>
              {TYPE_GROUPS.map((group) => (
                <optgroup key={group.label} label={group.label}>
                  {group.types.map((type) => (
                    <option key={type} value={type}>
                      {eventLabel(type)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label="From" labelFor="history-from">
            <InputGroup
              id="history-from"
              type="date"
              value={typed.from}
              onChange={(e) => set({ from: e.target.value })}
            />
          </FormGroup>
          <FormGroup
            label="To"
            labelFor="history-to"
            intent={badRange ? 'danger' : 'none'}
            helperText={badRange ? 'To must not be before From' : undefined}
          >
            <InputGroup
              id="history-to"
              type="date"
              value={typed.to}
              intent={badRange ? 'danger' : 'none'}
              onChange={(e) => set({ to: e.target.value })}
            />
          </FormGroup>
          <div className="kosh-history-filter-buttons">
            <Button type="submit" intent="primary" icon="filter" text="Apply" disabled={badRange} />
            <Button icon="cross" text="Clear" onClick={() => apply(NO_TIMELINE_FILTERS)} />
          </div>
        </form>
      </Card>
      <Timeline
        label="History entries"
        entries={data?.entries}
        loading={timeline.isLoading || (timeline.isFetching && cursor === null && !timeline.currentData)}
        fetching={timeline.isFetching}
        failed={timeline.isError}
        hasMore={Boolean(data?.nextCursor)}
        onMore={() => {
          if (data?.nextCursor && !timeline.isFetching) setCursor(data.nextCursor);
        }}
        onOnlyThis={(stream) => apply({ ...NO_TIMELINE_FILTERS, stream })}
      />
    </>
  );
}
