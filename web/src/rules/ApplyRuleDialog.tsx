import { Button, Callout, Dialog, DialogBody, DialogFooter, HTMLTable, Spinner } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useReturnFocus } from '../app/useReturnFocus';
import { categoryLabel, useGetCategoriesQuery } from '../categories/categoriesApi';
import { formatDate, formatMoney } from '../format';
import { toast } from '../toaster';
import { TableScroll } from '../ui/TableScroll';
import { type Rule, type RuleApply, useApplyRuleMutation } from './rulesApi';

type Props = { rule: Rule; onClose: () => void };

/** 'Apply to existing entries': the dry run's preview of what changes, then one application. */
export function ApplyRuleDialog({ rule, onClose }: Props) {
  useReturnFocus();
  const [apply, { isLoading }] = useApplyRuleMutation();
  const categories = useGetCategoriesQuery();
  const [preview, setPreview] = useState<RuleApply | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    void apply({ id: rule.id, dryRun: true }).then((result) => {
      if (!live) return;
      if ('error' in result) setFailed(true);
      else setPreview(result.data);
    });
    return () => {
      live = false;
    };
  }, [apply, rule.id]);

  const name = (id: string | null) => {
    const category = id ? categories.data?.find((c) => c.id === id) : undefined;
    return category ? categoryLabel(category, categories.data ?? []) : '—';
  };

  const confirm = async () => {
    const result = await apply({ id: rule.id, dryRun: false });
    if ('error' in result) return;
    toast.success(`${result.data.changed} transaction${result.data.changed === 1 ? '' : 's'} changed`);
    onClose();
  };

  const count = preview?.changed ?? 0;
  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={`Apply “${rule.name}” to existing entries`}
      icon="automatic-updates"
      style={{ width: 'min(720px, 96vw)' }}
    >
      <DialogBody>
        {failed ? (
          <Callout intent="danger">The preview could not be made.</Callout>
        ) : preview === null ? (
          <Spinner size={24} aria-label="Finding the transactions the rule changes" />
        ) : count === 0 ? (
          <Callout intent="primary" icon="info-sign">
            No transaction would change: every match already has this category and payee.
          </Callout>
        ) : (
          <>
            <p>
              {count} transaction{count === 1 ? '' : 's'} would change:
            </p>
            <TableScroll label="Transactions the rule changes">
              <HTMLTable compact striped className="kosh-stack" aria-label="Rule preview">
                <thead>
                  <tr>
                    <th>Date</th>
                    <th>Notes</th>
                    <th className="kosh-num">Amount</th>
                    <th>Category</th>
                    <th>Payee</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.changes.map((c) => (
                    <tr key={c.transaction_id}>
                      <td data-label="Date">{formatDate(c.transaction_date)}</td>
                      <td data-label="Notes" className="kosh-notes" title={c.notes}>
                        {c.notes}
                      </td>
                      <td
                        data-label="Amount"
                        className={`kosh-num ${c.transaction_type === 'C' ? 'kosh-credit' : 'kosh-debit'}`}
                      >
                        {formatMoney(c.amount)}
                      </td>
                      <td data-label="Category">
                        {c.previous_category_id === c.category_id
                          ? name(c.category_id)
                          : `${name(c.previous_category_id)} → ${name(c.category_id)}`}
                      </td>
                      <td data-label="Payee">
                        {c.previous_payee === c.payee
                          ? (c.payee ?? '—')
                          : `${c.previous_payee ?? '—'} → ${c.payee ?? '—'}`}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </TableScroll>
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} disabled={isLoading && preview !== null} />
            <Button
              intent="primary"
              text={`Apply to ${count} transaction${count === 1 ? '' : 's'}`}
              disabled={count === 0}
              loading={isLoading && preview !== null}
              onClick={confirm}
            />
          </>
        }
      />
    </Dialog>
  );
}
