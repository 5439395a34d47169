import { Icon, Intent, ProgressBar, Tag } from '@blueprintjs/core';
import { formatMoney } from '../format';
import type { BudgetStanding } from './budgetsApi';

/** Red once overspent, amber from 80% used. */
export function budgetIntent(b: Pick<BudgetStanding, 'overspent' | 'percent_used'>): Intent {
  if (b.overspent) return Intent.DANGER;
  return b.percent_used >= 80 ? Intent.WARNING : Intent.SUCCESS;
}

/** How much is left, or by how much it is overspent: said in words, not only by colour. */
export function leftText(b: Pick<BudgetStanding, 'overspent' | 'remaining'>): string {
  return b.overspent ? `Overspent by ${formatMoney(-b.remaining)}` : `${formatMoney(b.remaining)} left`;
}

/** One budget's bar: spent of available, and what is left or overspent. */
export function BudgetProgress({ budget }: { budget: BudgetStanding }) {
  const intent = budgetIntent(budget);
  const name = budget.parent_name ? `${budget.parent_name} › ${budget.category_name}` : budget.category_name;
  return (
    <div className={`kosh-budget${budget.overspent ? ' kosh-budget-overspent' : ''}`}>
      <div className="kosh-budget-line">
        <span className="kosh-budget-name">
          {budget.overspent ? <Icon icon="warning-sign" intent={Intent.DANGER} aria-hidden /> : null}
          {name}
        </span>
        <span className="kosh-budget-figures">
          {formatMoney(budget.spent)} of {formatMoney(budget.available)}
        </span>
      </div>
      <ProgressBar
        intent={intent}
        animate={false}
        stripes={false}
        value={Math.min(1, budget.available > 0 ? budget.spent / budget.available : 1)}
        aria-label={`${name}: ${budget.percent_used}% used`}
      />
      <div className="kosh-budget-line">
        {budget.overspent ? (
          <Tag intent={Intent.DANGER} icon="error" minimal={false}>
            {leftText(budget)}
          </Tag>
        ) : (
          <span className="kosh-muted">{leftText(budget)}</span>
        )}
        <span className="kosh-muted">
          {budget.percent_used.toFixed(1)}% used
          {budget.carried > 0 ? ` · ${formatMoney(budget.carried)} rolled over` : ''}
        </span>
      </div>
    </div>
  );
}
