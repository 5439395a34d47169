import {
  Callout,
  Card,
  FormGroup,
  H2,
  H3,
  HTMLSelect,
  HTMLTable,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { useState } from 'react';
import { formatDate, formatDateTime, formatMoney } from '../format';
import type { ScheduleRow } from '../loans/loansApi';
import { ScheduleTableHead } from '../loans/ScheduleTableHead';
import { TableScroll } from '../ui/TableScroll';
import './history.css';
import {
  type Figure,
  type ScheduleVersion,
  useGetScheduleDiffQuery,
  useGetScheduleVersionsQuery,
} from './historyApi';

const versionLabel = (v: ScheduleVersion) =>
  `Version ${v.version} · ${v.why} · ${formatDateTime(v.generatedAt)}`;

/** A signed difference: '+₹1,200.00', '−₹300.00', or 'No change'. */
function difference(value: number, money: boolean): string {
  if (value === 0) return 'No change';
  const shown = money ? formatMoney(Math.abs(value)) : String(Math.abs(value));
  return `${value > 0 ? '+' : '−'}${shown}`;
}

function FigureRow({ label, figure, money = true }: { label: string; figure: Figure; money?: boolean }) {
  const show = (n: number) => (money ? formatMoney(n) : String(n));
  const tone =
    figure.difference > 0 ? 'kosh-diff-up' : figure.difference < 0 ? 'kosh-diff-down' : 'kosh-muted';
  return (
    <tr>
      <th scope="row">{label}</th>
      <td className="kosh-num">{show(figure.from)}</td>
      <td className="kosh-num">{show(figure.to)}</td>
      <td className={`kosh-num ${tone}`}>{difference(figure.difference, money)}</td>
    </tr>
  );
}

/** A row cell pair: the old value struck through when it changed. */
function RowCells({
  from,
  to,
  pick,
}: {
  from: ScheduleRow | null;
  to: ScheduleRow | null;
  pick: (r: ScheduleRow) => number;
}) {
  const a = from ? pick(from) : null;
  const b = to ? pick(to) : null;
  return (
    <td className="kosh-num">
      {a !== null && a !== b ? <span className="kosh-history-from">{formatMoney(a)}</span> : null}
      {a !== null && a !== b && b !== null ? ' ' : null}
      {b !== null ? <span className={a !== b ? 'kosh-history-to' : undefined}>{formatMoney(b)}</span> : null}
      {b === null ? <span className="kosh-muted">removed</span> : null}
    </td>
  );
}

function Diff({ id, from, to }: { id: string; from: number; to: number }) {
  const diff = useGetScheduleDiffQuery({ id, from, to });
  if (diff.isLoading) return <Spinner size={20} aria-label="Comparing versions" />;
  if (!diff.data) return <Callout intent="danger">Failed to compare schedule versions</Callout>;
  const { changes, rows } = diff.data;
  return (
    <div aria-live="polite" aria-busy={diff.isFetching}>
      <TableScroll label={`Version ${from} against version ${to}, scrollable`}>
        <HTMLTable
          compact
          className="kosh-history-changes"
          aria-label={`Version ${from} against version ${to}`}
        >
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col" className="kosh-num">
                Version {from}
              </th>
              <th scope="col" className="kosh-num">
                Version {to}
              </th>
              <th scope="col" className="kosh-num">
                Difference
              </th>
            </tr>
          </thead>
          <tbody>
            <FigureRow label="EMI (principal + interest)" figure={changes.emi} />
            <FigureRow label="Tenure (payments)" figure={changes.tenure} money={false} />
            <FigureRow label="Total Interest" figure={changes.totalInterest} />
            <FigureRow label="Total GST" figure={changes.totalGst} />
            <FigureRow label="Total Outflow" figure={changes.totalOutflow} />
          </tbody>
        </HTMLTable>
      </TableScroll>
      <H3 className="kosh-section-title kosh-diff-rows-title">
        {rows.length === 0
          ? 'No payment differs'
          : `${rows.length} ${rows.length === 1 ? 'payment differs' : 'payments differ'}`}
      </H3>
      {rows.length > 0 ? (
        <TableScroll label="Differing payments" className="kosh-schedule-scroll">
          <HTMLTable compact striped aria-label="Differing payments" className="kosh-schedule-table">
            <ScheduleTableHead />
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.paymentNumber}-${r.from?.id ?? ''}-${r.to?.id ?? ''}`}>
                  <td className="kosh-num">
                    {r.paymentNumber}
                    {r.from === null ? (
                      <Tag minimal intent="success" className="kosh-diff-tag">
                        new
                      </Tag>
                    ) : null}
                  </td>
                  <td>{formatDate((r.to ?? r.from)?.emiDate ?? '')}</td>
                  <RowCells from={r.from} to={r.to} pick={(x) => x.principal} />
                  <RowCells from={r.from} to={r.to} pick={(x) => x.interest} />
                  <RowCells from={r.from} to={r.to} pick={(x) => x.gst} />
                  <RowCells from={r.from} to={r.to} pick={(x) => x.emi} />
                  <RowCells from={r.from} to={r.to} pick={(x) => x.remainingPrincipal} />
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </TableScroll>
      ) : null}
    </div>
  );
}

/**
 * The schedule's versions (when and why each was generated) and the difference between two of
 * them: by default the one before the latest against the latest.
 */
export function ScheduleVersions({ loanId }: { loanId: string }) {
  const versions = useGetScheduleVersionsQuery(loanId);
  const list = versions.data ?? [];
  const latest = list.at(-1)?.version;
  const before = list.at(-2)?.version;
  const [picked, setPicked] = useState<{ from: number; to: number } | null>(null);
  const from = picked?.from ?? before;
  const to = picked?.to ?? latest;
  const options = list.map((v) => ({ value: v.version, label: versionLabel(v) }));

  return (
    <Card className="kosh-panel kosh-schedule-versions">
      <H2 className="kosh-section-title">Schedule Versions</H2>
      {versions.isLoading ? (
        <Spinner size={20} aria-label="Loading schedule versions" />
      ) : list.length === 0 ? (
        <p className="kosh-muted">No schedule has been generated yet.</p>
      ) : (
        <>
          <TableScroll label="Schedule versions, scrollable">
            <HTMLTable compact striped aria-label="Schedule versions" className="kosh-history-changes">
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Generated</th>
                  <th scope="col">Why</th>
                  <th scope="col" className="kosh-num">
                    EMI (principal + interest)
                  </th>
                  <th scope="col" className="kosh-num">
                    Payments
                  </th>
                  <th scope="col" className="kosh-num">
                    Total Interest
                  </th>
                  <th scope="col" className="kosh-num">
                    Total Outflow
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((v) => (
                  <tr key={v.version}>
                    <td>{v.version}</td>
                    <td>{formatDateTime(v.generatedAt)}</td>
                    <td>{v.why}</td>
                    <td className="kosh-num">{formatMoney(v.emi)}</td>
                    <td className="kosh-num">{v.numberOfPayments}</td>
                    <td className="kosh-num">{formatMoney(v.totalInterest)}</td>
                    <td className="kosh-num">{formatMoney(v.totalOutflow)}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </TableScroll>
          {list.length < 2 || from === undefined || to === undefined ? (
            <NonIdealState
              icon="comparison"
              title="One version so far"
              description="Edit or regenerate the schedule to compare versions."
            />
          ) : (
            <>
              <fieldset className="kosh-version-picker">
                <legend className="kosh-visually-hidden">Compare versions</legend>
                <FormGroup label="Compare" labelFor="schedule-diff-from">
                  <HTMLSelect
                    id="schedule-diff-from"
                    value={from}
                    onChange={(e) => setPicked({ from: Number(e.target.value), to })}
                    options={options}
                  />
                </FormGroup>
                <FormGroup label="With" labelFor="schedule-diff-to">
                  <HTMLSelect
                    id="schedule-diff-to"
                    value={to}
                    onChange={(e) => setPicked({ from, to: Number(e.target.value) })}
                    options={options}
                  />
                </FormGroup>
              </fieldset>
              <Diff id={loanId} from={from} to={to} />
            </>
          )}
        </>
      )}
    </Card>
  );
}
