import { HTMLTable, Tag } from '@blueprintjs/core';
import { formatDate, formatMoney } from '../format';
import { TableScroll } from '../ui/TableScroll';
import type { LedgerSide } from './ledgerApi';

type Props = { title: string; side: LedgerSide; kind: 'credit' | 'debit'; empty: string };

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
            side.transactions.map((entry) => {
              const emi = entry.type === 'emi';
              return (
                <tr key={entry.id} className={emi ? 'kosh-emi-row' : undefined}>
                  <td data-label="Date">{formatDate(entry.date)}</td>
                  <td data-label="Particulars" className="kosh-particulars">
                    <span>{entry.particulars}</span>
                    {emi ? (
                      <Tag intent="warning" minimal icon="bank-account" className="kosh-emi-tag">
                        EMI Payment
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
