import { Card, H3, HTMLTable } from '@blueprintjs/core';
import { calculateLoan } from '@kosh/domain';
import { FormSpy } from 'react-final-form';
import { formatMoney } from '../format';
import type { LoanFormValues } from './loanForm';

/** Live figures from the domain calculator (spec section 5) as the user types. */
export function LoanPreview() {
  return (
    <FormSpy<LoanFormValues> subscription={{ values: true }}>
      {({ values }) => {
        const result = calculateLoan({
          principalAmount: values.principalAmount,
          interestRate: values.interestRate,
          duration: values.duration,
          isDurationYearly: values.isDurationYearly === '1',
          isInterestRateYearly: values.isInterestRateYearly === '1',
          hasGst: values.hasGst,
          gstPercentage: values.gstPercentage,
        });
        return (
          <Card className="kosh-preview" aria-label="Loan preview" role="region">
            <H3 className="kosh-section-title">Preview</H3>
            <HTMLTable compact className="kosh-preview-table">
              <tbody>
                <tr>
                  <th scope="row">Monthly EMI</th>
                  <td className="kosh-num" data-testid="preview-emi">
                    {formatMoney(result.emi)}
                  </td>
                </tr>
                <tr>
                  <th scope="row">Total Interest</th>
                  <td className="kosh-num" data-testid="preview-interest">
                    {formatMoney(result.totalInterest)}
                  </td>
                </tr>
                <tr>
                  <th scope="row">GST</th>
                  <td className="kosh-num" data-testid="preview-gst">
                    {formatMoney(result.gst)}
                  </td>
                </tr>
                <tr>
                  <th scope="row">Total Amount</th>
                  <td className="kosh-num kosh-strong" data-testid="preview-total">
                    {formatMoney(result.totalAmount)}
                  </td>
                </tr>
                <tr className="kosh-wide-only">
                  <th scope="row">Number of EMIs</th>
                  <td className="kosh-num">{result.months}</td>
                </tr>
              </tbody>
            </HTMLTable>
            <p className="kosh-muted kosh-small kosh-wide-only">
              Figures are estimates; the schedule is exact to the paisa.
            </p>
          </Card>
        );
      }}
    </FormSpy>
  );
}
