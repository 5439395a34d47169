import {
  Button,
  Callout,
  Card,
  Dialog,
  DialogBody,
  DialogFooter,
  HTMLTable,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import { useState } from 'react';
import { useGetAccountsQuery } from '../accounts/accountsApi';
import { PageHeader } from '../app/layout/PageHeader';
import { useReturnFocus } from '../app/useReturnFocus';
import { categoryLabel, useGetCategoriesQuery } from '../categories/categoriesApi';
import { formatMoney } from '../format';
import { toast } from '../toaster';
import { TableScroll } from '../ui/TableScroll';
import { ApplyRuleDialog } from './ApplyRuleDialog';
import { RuleDialog } from './RuleDialog';
import { type Rule, useDeleteRuleMutation, useGetRulesQuery } from './rulesApi';

type Editing = { open: false } | { open: true; rule: Rule | null };

/** "contains “swiggy” · debit · ₹100.00 to ₹1,000.00": a rule's conditions in words. */
function conditionsOf(rule: Rule, accountName: (id: string) => string): string {
  const parts: string[] = [];
  if (rule.match_text) parts.push(`contains “${rule.match_text}”`);
  if (rule.match_pattern) parts.push(`matches /${rule.match_pattern}/`);
  if (rule.transaction_type) parts.push(rule.transaction_type === 'C' ? 'credit' : 'debit');
  if (rule.amount_min !== null && rule.amount_max !== null)
    parts.push(`${formatMoney(rule.amount_min)} to ${formatMoney(rule.amount_max)}`);
  else if (rule.amount_min !== null) parts.push(`at least ${formatMoney(rule.amount_min)}`);
  else if (rule.amount_max !== null) parts.push(`at most ${formatMoney(rule.amount_max)}`);
  if (rule.account_id) parts.push(`in ${accountName(rule.account_id)}`);
  return parts.join(' · ');
}

/** /rules: the user's categorisation rules; add, edit, apply to existing entries (with a preview), delete. */
export function RulesPage() {
  const rules = useGetRulesQuery();
  const categories = useGetCategoriesQuery();
  const accounts = useGetAccountsQuery(undefined);
  const [editing, setEditing] = useState<Editing>({ open: false });
  const [applying, setApplying] = useState<Rule | null>(null);
  const [deleting, setDeleting] = useState<Rule | null>(null);
  const rows = rules.data ?? [];
  const categoryName = (id: string | null) => {
    const category = id ? categories.data?.find((c) => c.id === id) : undefined;
    return category ? categoryLabel(category, categories.data ?? []) : null;
  };
  const accountName = (id: string) => accounts.data?.find((a) => a.id === id)?.name ?? 'an account';

  return (
    <>
      <PageHeader
        title="Rules"
        subtitle="Categorise transactions by their notes, narration, amount, account and type"
        actions={
          <Button
            intent="primary"
            icon="add"
            text="Add Rule"
            onClick={() => setEditing({ open: true, rule: null })}
          />
        }
      />
      <Card>
        {rules.isError ? (
          <Callout intent="danger" className="kosh-panel">
            Failed to load rules
          </Callout>
        ) : null}
        {rules.isLoading ? (
          <Spinner size={24} aria-label="Loading rules" />
        ) : rows.length === 0 ? (
          <NonIdealState
            icon="predictive-analysis"
            title="No rules yet"
            description="A rule sets the category and payee of the transactions it matches: in an import's preview, and on existing entries when you apply it."
          />
        ) : (
          <TableScroll label="Rules table">
            <HTMLTable striped className="kosh-stack" aria-label="Rules">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>When</th>
                  <th>Sets</th>
                  <th className="kosh-num">Changed</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((rule) => (
                  <tr key={rule.id}>
                    <td data-label="Name" className="kosh-strong">
                      {rule.name}
                    </td>
                    <td data-label="When">{conditionsOf(rule, accountName)}</td>
                    <td data-label="Sets">
                      {[categoryName(rule.category_id), rule.payee ? `payee ${rule.payee}` : null]
                        .filter(Boolean)
                        .join(' · ')}
                    </td>
                    <td data-label="Changed" className="kosh-num">
                      {rule.changed_count}
                    </td>
                    <td data-label="Actions">
                      <div className="kosh-actions">
                        <Button
                          variant="minimal"
                          icon="automatic-updates"
                          aria-label={`Apply rule ${rule.name} to existing entries`}
                          title="Apply to existing entries"
                          onClick={() => setApplying(rule)}
                        />
                        <Button
                          variant="minimal"
                          icon="edit"
                          aria-label={`Edit rule ${rule.name}`}
                          title="Edit"
                          onClick={() => setEditing({ open: true, rule })}
                        />
                        <Button
                          variant="minimal"
                          icon="trash"
                          intent="danger"
                          aria-label={`Delete rule ${rule.name}`}
                          title="Delete"
                          onClick={() => setDeleting(rule)}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </TableScroll>
        )}
      </Card>
      {editing.open ? (
        <RuleDialog editing={editing.rule} onClose={() => setEditing({ open: false })} />
      ) : null}
      {applying ? <ApplyRuleDialog rule={applying} onClose={() => setApplying(null)} /> : null}
      {deleting ? <DeleteRuleDialog rule={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}

function DeleteRuleDialog({ rule, onClose }: { rule: Rule; onClose: () => void }) {
  useReturnFocus();
  const [remove, { isLoading }] = useDeleteRuleMutation();
  const confirm = async () => {
    const result = await remove(rule.id);
    if ('error' in result) return;
    toast.success('Rule deleted');
    onClose();
  };
  return (
    <Dialog isOpen onClose={onClose} title="Delete Rule" icon="trash">
      <DialogBody>
        <p>
          Delete the rule <strong>{rule.name}</strong>? What it already changed stays.
        </p>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} disabled={isLoading} />
            <Button intent="danger" text="Delete Rule" loading={isLoading} onClick={confirm} />
          </>
        }
      />
    </Dialog>
  );
}
