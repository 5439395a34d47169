import { Card, H2, HTMLTable } from '@blueprintjs/core';
import { calculateLoan } from '@kosh/domain';
import { FormSpy } from 'react-final-form';
import { formatMoney } from '../format';
import { EMI_LABELS } from './loanDisplay';
import { type LoanFormValues, readNumbers } from './loanFormValues';

/** Live figures from the domain calculator (spec section 5) as the user types. */
export function LoanPreview() {
  return (
    <FormSpy<LoanFormValues> subscription={{ values: true }}>
      {({ values: typed }) => {
        const values = readNumbers(typed);
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
            <H2 className="kosh-section-title">Preview</H2>
            <HTMLTable compact className="kosh-preview-table">
              <tbody>
                <tr>
                  <th scope="row">{EMI_LABELS.emi}</th>
                  <td className="kosh-num" data-testid="preview-emi">
                    {formatMoney(result.emi)}
                  </td>
                </tr>
                <tr className="kosh-wide-only">
                  <th scope="row">{EMI_LABELS.gst}</th>
                  <td className="kosh-num">{formatMoney(result.firstGst)}</td>
                </tr>
                <tr>
                  <th scope="row">{EMI_LABELS.outflow}</th>
                  <td className="kosh-num kosh-strong">{formatMoney(result.firstOutflow)}</td>
                </tr>
                <tr className="kosh-wide-only">
                  <th scope="row">Total Interest</th>
                  <td className="kosh-num" data-testid="preview-interest">
                    {formatMoney(result.totalInterest)}
                  </td>
                </tr>
                <tr className="kosh-wide-only">
                  <th scope="row">Total GST</th>
                  <td className="kosh-num" data-testid="preview-gst">
                    {formatMoney(result.gst)}
                  </td>
                </tr>
                <tr className="kosh-wide-only">
                  <th scope="row">Total Amount</th>
                  <td className="kosh-num" data-testid="preview-total">
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
