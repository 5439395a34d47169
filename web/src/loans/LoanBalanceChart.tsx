import { Button, Card, H2 } from '@blueprintjs/core';
import { useMemo } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { axisMoney, axisMonth, chartMoney } from '../dashboard/chartFormat';
import { formatDate } from '../format';
import { actualSteps, balancePoints, contractSteps, whatIfSteps } from './balanceChart';
import type { Loan, PrepaymentComparison, ScheduleRow } from './loansApi';

type Props = {
  loan: Loan;
  rows: readonly ScheduleRow[];
  /** A part-payment compared but not recorded: both choices drawn beside the actual line. */
  whatIf?: PrepaymentComparison | null;
  onClearWhatIf?: () => void;
};

/**
 * Loan details: the outstanding principal over time under the contract and as the loan actually
 * runs after part-payments, resets and a foreclosure (own chunk: recharts is large, as on the
 * dashboard).
 */
export function LoanBalanceChart({ loan, rows, whatIf, onClearWhatIf }: Props) {
  const points = useMemo(() => {
    const actual = actualSteps(loan, rows);
    const choices = whatIf
      ? {
          reduceEmi: whatIfSteps(actual, whatIf.reduceEmi.balances),
          reduceTenure: whatIfSteps(actual, whatIf.reduceTenure.balances),
        }
      : undefined;
    return balancePoints(contractSteps(loan), actual, choices);
  }, [loan, rows, whatIf]);
  return (
    <Card
      className="kosh-chart-card kosh-details-chart"
      role="region"
      aria-label={
        whatIf
          ? 'Outstanding principal, contract, actual and what-if'
          : 'Outstanding principal, contract and actual'
      }
    >
      <div className="kosh-card-header">
        <H2 className="kosh-section-title">
          Outstanding principal: contract vs actual{whatIf ? ' vs what-if' : ''}
        </H2>
        {whatIf && onClearWhatIf ? (
          <Button variant="minimal" icon="cross" text="Clear what-if" onClick={onClearWhatIf} />
        ) : null}
      </div>
      <div className="kosh-chart" data-testid="loan-balance-chart">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 8, right: 8, left: 8, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="date" tickFormatter={axisMonth} tick={{ fontSize: 12 }} minTickGap={32} />
            <YAxis tickFormatter={axisMoney} tick={{ fontSize: 12 }} width={70} />
            <Tooltip formatter={chartMoney} labelFormatter={(d) => formatDate(String(d))} />
            <Legend />
            <Line
              type="stepAfter"
              dataKey="contract"
              name="Contract"
              stroke="#8f99a8"
              strokeDasharray="6 4"
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
            <Line
              type="stepAfter"
              dataKey="actual"
              name="Actual (after changes)"
              stroke="#2d72d2"
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
            {whatIf ? (
              <Line
                type="stepAfter"
                dataKey="reduceEmi"
                name="What-if: reduce EMI"
                stroke="#c87619"
                strokeDasharray="2 3"
                dot={false}
                isAnimationActive={false}
                connectNulls
              />
            ) : null}
            {whatIf ? (
              <Line
                type="stepAfter"
                dataKey="reduceTenure"
                name="What-if: reduce tenure"
                stroke="#238551"
                strokeDasharray="2 3"
                dot={false}
                isAnimationActive={false}
                connectNulls
              />
            ) : null}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </Card>
  );
}
