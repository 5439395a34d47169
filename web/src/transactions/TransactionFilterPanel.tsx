import { Button, Card, FormGroup, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import type { FormEvent } from 'react';
import { type Category, categoryLabel, categoryOptions } from '../categories/categoriesApi';
import { formatDate } from '../format';
import type { TransactionFilters } from './transactionsApi';

type Props = {
  /** The user's accounts, for the account filter (id and name). */
  accounts: readonly { id: string; name: string }[];
  /** The user's categories, for the category filter. */
  categories: readonly Category[];
  typed: TransactionFilters;
  applied: TransactionFilters;
  onType: (filters: TransactionFilters) => void;
  onApply: () => void;
  onClear: () => void;
};

export const isFiltered = (filters: TransactionFilters): boolean =>
  Object.values(filters).some((value) => value.trim() !== '');

function badgesOf(
  filters: TransactionFilters,
  accounts: Props['accounts'],
  categories: readonly Category[],
): string[] {
  const badges: string[] = [];
  if (filters.category_id === 'none') badges.push('Category: None');
  else if (filters.category_id) {
    const category = categories.find((c) => c.id === filters.category_id);
    badges.push(`Category: ${category ? categoryLabel(category, categories) : 'Unknown'}`);
  }
  if (filters.account_id === 'none') badges.push('Account: No account');
  else if (filters.account_id) {
    badges.push(`Account: ${accounts.find((a) => a.id === filters.account_id)?.name ?? 'Unknown'}`);
  }
  if (filters.search.trim()) badges.push(`Search: ${filters.search.trim()}`);
  if (filters.transaction_type) badges.push(`Type: ${filters.transaction_type === 'C' ? 'Credit' : 'Debit'}`);
  if (filters.date_from) badges.push(`From: ${formatDate(filters.date_from)}`);
  if (filters.date_to) badges.push(`To: ${formatDate(filters.date_to)}`);
  return badges;
}

/** Said under 'Date To' when it is before 'Date From': such a range holds no day at all. */
export const REVERSED_RANGE = "'Date To' is before 'Date From': choose a range that runs forwards.";

/**
 * Typed values apply only on Search or Enter (spec section 2). A reversed date range is not
 * applied (it would show an empty book as if nothing matched): the field says why instead.
 */
export function TransactionFilterPanel({
  accounts,
  categories,
  typed,
  applied,
  onType,
  onApply,
  onClear,
}: Props) {
  const set = (patch: Partial<TransactionFilters>) => onType({ ...typed, ...patch });
  const reversed = typed.date_from !== '' && typed.date_to !== '' && typed.date_to < typed.date_from;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A reversed range is not applied; focus goes to Date To, the field marked in error
    // (app/focusFirstInvalid.ts).
    if (!reversed) onApply();
  };
  // Clear undoes an applied filter: shown once one is applied (Search or Enter), not while typing.
  const active = isFiltered(applied);
  return (
    <Card className="kosh-panel">
      <form onSubmit={submit} aria-label="Transaction filters">
        <div className="kosh-toolbar">
          <FormGroup label="Search" labelFor="filter-search">
            <InputGroup
              id="filter-search"
              type="search"
              leftIcon="search"
              placeholder="Search by notes..."
              value={typed.search}
              onChange={(e) => set({ search: e.target.value })}
            />
          </FormGroup>
          <FormGroup label="Transaction Type" labelFor="filter-type">
            <HTMLSelect
              id="filter-type"
              fill
              value={typed.transaction_type}
              onChange={(e) =>
                set({ transaction_type: e.target.value as TransactionFilters['transaction_type'] })
              }
              options={[
                { value: '', label: 'All' },
                { value: 'C', label: 'Credit' },
                { value: 'D', label: 'Debit' },
              ]}
            />
          </FormGroup>
          <FormGroup label="Date From" labelFor="filter-from">
            <InputGroup
              id="filter-from"
              type="date"
              value={typed.date_from}
              onChange={(e) => set({ date_from: e.target.value })}
            />
          </FormGroup>
          <FormGroup
            label="Date To"
            labelFor="filter-to"
            intent={reversed ? 'danger' : 'none'}
            helperText={reversed ? <span id="filter-to-error">{REVERSED_RANGE}</span> : undefined}
          >
            <InputGroup
              id="filter-to"
              type="date"
              value={typed.date_to}
              intent={reversed ? 'danger' : 'none'}
              aria-invalid={reversed || undefined}
              aria-describedby={reversed ? 'filter-to-error' : undefined}
              onChange={(e) => set({ date_to: e.target.value })}
            />
          </FormGroup>
          <FormGroup label="Account" labelFor="filter-account">
            <HTMLSelect
              id="filter-account"
              fill
              value={typed.account_id}
              onChange={(e) => set({ account_id: e.target.value })}
              options={[
                { value: '', label: 'All' },
                { value: 'none', label: 'No account' },
                ...accounts.map((a) => ({ value: a.id, label: a.name })),
              ]}
            />
          </FormGroup>
          <FormGroup label="Category" labelFor="filter-category">
            <HTMLSelect
              id="filter-category"
              fill
              value={typed.category_id}
              onChange={(e) => set({ category_id: e.target.value })}
              options={[
                { value: '', label: 'All' },
                { value: 'none', label: 'No category' },
                ...categoryOptions(categories),
              ]}
            />
          </FormGroup>
          <div className="kosh-actions">
            <Button type="submit" intent="primary" icon="search" text="Search" />
            {active ? <Button icon="cross" text="Clear" onClick={onClear} /> : null}
          </div>
        </div>
        {isFiltered(applied) ? (
          <ul className="kosh-badges" aria-label="Active filters">
            {badgesOf(applied, accounts, categories).map((badge) => (
              <li key={badge}>
                <Tag minimal intent="primary" round>
                  {badge}
                </Tag>
              </li>
            ))}
          </ul>
        ) : null}
      </form>
    </Card>
  );
}
