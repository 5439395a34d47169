import {
  Button,
  Callout,
  Card,
  FormGroup,
  H2,
  HTMLSelect,
  Intent,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import { useState } from 'react';
import { PageHeader } from '../app/layout/PageHeader';
import { formatMoney, MONTH_NAMES, todayIso } from '../format';
import { useAsOfMode } from '../history/asOf';
import { toast } from '../toaster';
import { StatCard, StatGrid } from '../ui/StatCard';
import { BudgetDialog } from './BudgetDialog';
import { BudgetProgress } from './BudgetProgress';
import { type Budget, useDeleteBudgetMutation, useGetBudgetStatusQuery } from './budgetsApi';
import './budgets.css';
import '../reports/reports.css';
import '../ui/money-screens.css';

/** /budgets (issue 31): each budget against what its category spent in a month; overspent first. */
export function BudgetsPage() {
  const asOfMode = useAsOfMode('the budgets');
  const { asOf, readOnly } = asOfMode;
  const today = asOf ?? todayIso();
  const [month, setMonth] = useState(Number(today.slice(5, 7)));
  const [year, setYear] = useState(Number(today.slice(0, 4)));
  const [dialog, setDialog] = useState<{ editing: Budget | null } | null>(null);
  const status = useGetBudgetStatusQuery({ month, year, ...(asOf ? { asOf } : {}) });
  const [remove] = useDeleteBudgetMutation();
  const data = status.data;
  const years = Array.from({ length: 10 }, (_, i) => Number(today.slice(0, 4)) - 5 + i);

  const deleteBudget = async (budget: Budget) => {
    const result = await remove(budget.id);
    if (!('error' in result)) toast.success('Budget deleted successfully!');
  };

  return (
    <>
      <PageHeader
        title="Budgets"
        subtitle="A monthly amount per expense category, against what it spent"
        actions={
          <div className="kosh-header-buttons">
            {asOfMode.control}
            {readOnly ? null : (
              <Button
                icon="add"
                intent="primary"
                text="Set Budget"
                onClick={() => setDialog({ editing: null })}
              />
            )}
          </div>
        }
      />
      {asOfMode.banner}
      <div className="kosh-report-controls">
        <FormGroup label="Month" labelFor="budget-month">
          <HTMLSelect
            id="budget-month"
            value={month}
            onChange={(e) => setMonth(Number(e.target.value))}
            options={MONTH_NAMES.map((name, i) => ({ value: i + 1, label: name }))}
          />
        </FormGroup>
        <FormGroup label="Year" labelFor="budget-year">
          <HTMLSelect
            id="budget-year"
            value={year}
            onChange={(e) => setYear(Number(e.target.value))}
            options={years}
          />
        </FormGroup>
      </div>
      {status.isLoading ? (
        <Spinner aria-label="Loading budgets" />
      ) : !data ? (
        <p className="kosh-muted">Failed to load budgets</p>
      ) : data.budgets.length === 0 ? (
        <Card className="kosh-panel">
          <NonIdealState
            icon="pie-chart"
            title="No budgets yet"
            description="Set a monthly amount for an expense category to see what is left of it."
            action={
              readOnly ? undefined : (
                <Button icon="add" text="Set Budget" onClick={() => setDialog({ editing: null })} />
              )
            }
          />
        </Card>
      ) : (
        <>
          <StatGrid>
            <StatCard label="Budgeted" icon="pie-chart" value={formatMoney(data.totals.available)} />
            <StatCard label="Spent" icon="shopping-cart" value={formatMoney(data.totals.spent)} />
            <StatCard
              label={data.totals.remaining < 0 ? 'Over budget' : 'Left'}
              icon={data.totals.remaining < 0 ? 'error' : 'tick-circle'}
              intent={data.totals.remaining < 0 ? Intent.DANGER : Intent.SUCCESS}
              value={formatMoney(Math.abs(data.totals.remaining))}
            />
            <StatCard
              label="Overspent"
              icon="warning-sign"
              intent={data.overspent_count > 0 ? Intent.DANGER : Intent.NONE}
              value={data.overspent_count}
              detail={`of ${data.budgets.length} budgets`}
            />
          </StatGrid>
          {data.overspent_count > 0 ? (
            <Callout intent={Intent.DANGER} icon="warning-sign" className="kosh-panel" title="Over budget">
              {data.budgets
                .filter((b) => b.overspent)
                .map((b) => `${b.category_name}: overspent by ${formatMoney(-b.remaining)}`)
                .join('; ')}
            </Callout>
          ) : null}
          <Card
            className="kosh-panel"
            role="region"
            aria-label={`Budgets for ${data.month_name} ${data.year}`}
          >
            <H2 className="kosh-section-title">
              {data.month_name} {data.year}
            </H2>
            {data.budgets.map((b) => (
              <div key={b.id} className="kosh-budget-row" data-testid="budget-row">
                <BudgetProgress budget={b} />
                {readOnly ? null : (
                  <div className="kosh-budget-actions">
                    <Button
                      icon="edit"
                      variant="minimal"
                      aria-label={`Edit budget for ${b.category_name}`}
                      onClick={() => setDialog({ editing: b })}
                    />
                    <Button
                      icon="trash"
                      variant="minimal"
                      intent={Intent.DANGER}
                      aria-label={`Delete budget for ${b.category_name}`}
                      onClick={() => deleteBudget(b)}
                    />
                  </div>
                )}
              </div>
            ))}
          </Card>
        </>
      )}
      {dialog ? (
        <BudgetDialog
          open
          editing={dialog.editing}
          budgeted={(data?.budgets ?? []).map((b) => b.category_id)}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </>
  );
}
