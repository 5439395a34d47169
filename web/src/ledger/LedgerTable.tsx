import { HTMLTable, Tag } from '@blueprintjs/core';
import { memo, useMemo } from 'react';
import { formatDate, formatMoney } from '../format';
import { SpacerRow } from '../ui/SpacerRow';
import { TableScroll } from '../ui/TableScroll';
import { useRowWindow } from '../ui/useRowWindow';
import type { LedgerSide } from './ledgerApi';

/** How a loan's payments are marked: an EMI (spec section 2), a part-payment or a foreclosure. */
const LOAN_PAYMENT_TAGS = {
  emi: 'EMI Payment',
  prepayment: 'Part-payment',
  foreclosure: 'Foreclosure',
} as const satisfies Record<Exclude<LedgerSide['transactions'][number]['type'], 'transaction'>, string>;

type Props = { title: string; side: LedgerSide; kind: 'credit' | 'debit'; empty: string };

type Entry = LedgerSide['transactions'][number];
type Group = NonNullable<LedgerSide['groups']>[number];
type LedgerRow = { group: Group } | { entry: Entry };

/**
 * The side's entries, or (grouped by category, issue 31) each group's heading followed by its
 * entries, in the groups' order.
 */
function rowsOf(side: LedgerSide): LedgerRow[] {
  if (!side.groups) return side.transactions.map((entry) => ({ entry }));
  const byId = new Map(side.transactions.map((e) => [e.id, e]));
  return side.groups.flatMap((group) => [
    { group },
    ...group.entryIds.flatMap((id) => {
      const entry = byId.get(id);
      return entry ? [{ entry }] : [];
    }),
  ]);
}

/** One side of the month: Date, Particulars, Amount, with a total footer. */
export function LedgerTable({ title, side, kind, empty }: Props) {
  const rows = useMemo(() => rowsOf(side), [side]);
  const { slots, bodyProps } = useRowWindow(rows.length);
  const amountClass = `kosh-num ${kind === 'credit' ? 'kosh-credit' : 'kosh-debit'}`;
  return (
    <TableScroll label={`${title} table`}>
      <HTMLTable
        compact
        striped
        aria-label={`${title} entries`}
        aria-rowcount={Math.max(rows.length, 1) + 2}
        className="kosh-ledger-table kosh-stack"
      >
        <caption className="kosh-ledger-caption">{title}</caption>
        <thead>
          <tr aria-rowindex={1}>
            <th>Date</th>
            <th>Particulars</th>
            <th className="kosh-num">Amount</th>
          </tr>
        </thead>
        <tbody {...bodyProps}>
          {rows.length === 0 ? (
            <tr aria-rowindex={2}>
              <td colSpan={3} className="kosh-empty-cell">
                {empty}
              </td>
            </tr>
          ) : (
            slots.map((slot) => {
              if (slot.kind === 'spacer')
                return <SpacerRow key={slot.key} height={slot.height} columns={3} />;
              const row = rows[slot.index] as LedgerRow;
              return 'group' in row ? (
                <GroupRow
                  key={`group-${row.group.categoryId ?? row.group.name}`}
                  group={row.group}
                  index={slot.index}
                />
              ) : (
                <EntryRow key={row.entry.id} entry={row.entry} index={slot.index} amountClass={amountClass} />
              );
            })
          )}
        </tbody>
        <tfoot>
          <tr aria-rowindex={Math.max(rows.length, 1) + 2}>
            <th colSpan={2}>Total</th>
            <th className={amountClass}>{formatMoney(side.total)}</th>
          </tr>
        </tfoot>
      </HTMLTable>
    </TableScroll>
  );
}

const GroupRow = memo(function GroupRow({ group, index }: { group: Group; index: number }) {
  return (
    <tr data-row-index={index} aria-rowindex={index + 2} className="kosh-ledger-group">
      <th colSpan={2} scope="rowgroup" className="kosh-ledger-group-cell">
        {group.name}
      </th>
      <th className="kosh-num kosh-ledger-group-cell">{formatMoney(group.total)}</th>
    </tr>
  );
});

const EntryRow = memo(function EntryRow({
  entry,
  index,
  amountClass,
}: {
  entry: Entry;
  index: number;
  amountClass: string;
}) {
  const loanPayment = entry.type === 'transaction' ? null : LOAN_PAYMENT_TAGS[entry.type];
  return (
    <tr data-row-index={index} aria-rowindex={index + 2} className={loanPayment ? 'kosh-emi-row' : undefined}>
      <td data-label="Date">{formatDate(entry.date)}</td>
      <td data-label="Particulars" className="kosh-particulars">
        <span>{entry.particulars}</span>
        {loanPayment ? (
          <Tag intent="warning" minimal icon="bank-account" className="kosh-emi-tag">
            {loanPayment}
          </Tag>
        ) : null}
      </td>
      <td data-label="Amount" className={amountClass}>
        {formatMoney(entry.amount)}
      </td>
    </tr>
  );
});
