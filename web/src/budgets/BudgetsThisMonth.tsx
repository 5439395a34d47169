import { Callout, Card, H2, Intent, Spinner } from '@blueprintjs/core';
import { Link } from 'wouter';
import { formatMoney } from '../format';
import { BudgetProgress } from './BudgetProgress';
import { useGetBudgetStatusQuery } from './budgetsApi';
import './budgets.css';

const SHOWN = 5;

/** The dashboard's card: spent against budget this month, overspent budgets first and said so. */
export function BudgetsThisMonth() {
  const now = new Date();
  const status = useGetBudgetStatusQuery({ month: now.getMonth() + 1, year: now.getFullYear() });
  const data = status.data;
  if (status.isLoading) return <Spinner aria-label="Loading budgets" />;
  if (!data) return null;
  return (
    <Card className="kosh-panel" role="region" aria-label="Budgets this month">
      <H2 className="kosh-section-title">Budgets this month</H2>
      {data.budgets.length === 0 ? (
        <p className="kosh-muted">
          No budgets yet. <Link href="/budgets">Set a monthly budget</Link> for a category to see what is left
          of it.
        </p>
      ) : (
        <>
          <p>
            Spent <strong>{formatMoney(data.totals.spent)}</strong> of {formatMoney(data.totals.available)}{' '}
            budgeted in {data.month_name}.
          </p>
          {data.overspent_count > 0 ? (
            <Callout intent={Intent.DANGER} icon="warning-sign" compact>
              {data.overspent_count === 1 ? '1 budget is' : `${data.overspent_count} budgets are`} overspent
              this month.
            </Callout>
          ) : null}
          {data.budgets.slice(0, SHOWN).map((b) => (
            <BudgetProgress key={b.id} budget={b} />
          ))}
          <Link href="/budgets">
            {data.budgets.length > SHOWN ? `All ${data.budgets.length} budgets` : 'Budgets'}
          </Link>
        </>
      )}
    </Card>
  );
}
