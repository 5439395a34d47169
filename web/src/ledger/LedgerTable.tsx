import { HTMLTable, Tag } from '@blueprintjs/core';
import { formatDate, formatMoney } from '../format';
import { TableScroll } from '../ui/TableScroll';
import type { LedgerSide } from './ledgerApi';

/** How a loan's payments are marked: an EMI (spec section 2), a part-payment or a foreclosure. */
const LOAN_PAYMENT_TAGS = {
  emi: 'EMI Payment',
  prepayment: 'Part-payment',
  foreclosure: 'Foreclosure',
} as const satisfies Record<Exclude<LedgerSide['transactions'][number]['type'], 'transaction'>, string>;

type Props = { title: string; side: LedgerSide; kind: 'credit' | 'debit'; empty: string };

type Entry = LedgerSide['transactions'][number];

/**
 * The side's entries, or (grouped by category, issue 31) each group's heading followed by its
 * entries, in the groups' order.
 */
function rowsOf(
  side: LedgerSide,
): ({ group: NonNullable<LedgerSide['groups']>[number] } | { entry: Entry })[] {
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
  return (
    <TableScroll label={`${title} table`}>
      <HTMLTable compact striped aria-label={`${title} entries`} className="kosh-ledger-table kosh-stack">
        <caption className="kosh-ledger-caption">{title}</caption>
        <thead>
          <tr>
            <th>Date</th>
            <th>Particulars</th>
            <th className="kosh-num">Amount</th>
          </tr>
        </thead>
        <tbody>
          {side.transactions.length === 0 ? (
            <tr>
              <td colSpan={3} className="kosh-empty-cell">
                {empty}
              </td>
            </tr>
          ) : (
            rowsOf(side).map((row) => {
              if ('group' in row)
                return (
                  <tr key={`group-${row.group.categoryId ?? row.group.name}`} className="kosh-ledger-group">
                    <th colSpan={2} scope="rowgroup" className="kosh-ledger-group-cell">
                      {row.group.name}
                    </th>
                    <th className="kosh-num kosh-ledger-group-cell">{formatMoney(row.group.total)}</th>
                  </tr>
                );
              const { entry } = row;
              const loanPayment = entry.type === 'transaction' ? null : LOAN_PAYMENT_TAGS[entry.type];
              return (
                <tr key={entry.id} className={loanPayment ? 'kosh-emi-row' : undefined}>
                  <td data-label="Date">{formatDate(entry.date)}</td>
                  <td data-label="Particulars" className="kosh-particulars">
                    <span>{entry.particulars}</span>
                    {loanPayment ? (
                      <Tag intent="warning" minimal icon="bank-account" className="kosh-emi-tag">
                        {loanPayment}
                      </Tag>
                    ) : null}
                  </td>
                  <td
                    data-label="Amount"
                    className={`kosh-num ${kind === 'credit' ? 'kosh-credit' : 'kosh-debit'}`}
                  >
                    {formatMoney(entry.amount)}
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
        <tfoot>
          <tr>
            <th colSpan={2}>Total</th>
            <th className={`kosh-num ${kind === 'credit' ? 'kosh-credit' : 'kosh-debit'}`}>
              {formatMoney(side.total)}
            </th>
          </tr>
        </tfoot>
      </HTMLTable>
    </TableScroll>
  );
}
