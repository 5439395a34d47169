import { Callout } from '@blueprintjs/core';
import { isIsoDate } from '@kosh/domain';
import { formatDate, todayIso } from '../../format';
import { InputGroupField } from '../../forms';
import { type ScheduleRow, useMarkEmisPaidUpToMutation } from '../loansApi';
import { isEmi } from '../scheduleTotals';
import { changeValidator, dateRule } from './changeForm';
import { LoanChangeDialog } from './LoanChangeDialog';

type Values = { upTo: string };

const validate = changeValidator<Values>([dateRule('upTo')]);

/** The EMIs 'Mark paid up to' would mark: due on or before the date, nothing marked on them (as the server). */
export const emisToMarkUpTo = (rows: readonly ScheduleRow[], upTo: string): ScheduleRow[] =>
  isIsoDate(upTo) ? rows.filter((row) => isEmi(row) && row.emiDate <= upTo && row.markIds.length === 0) : [];

type Props = { loanId: string; rows: readonly ScheduleRow[]; onClose: () => void };

/** 'Mark Paid Up To': every EMI due by a date, paid on its own due date, in one step (and one undo). */
export function PaidUpToDialog({ loanId, rows, onClose }: Props) {
  const [markUpTo] = useMarkEmisPaidUpToMutation();
  return (
    <LoanChangeDialog<Values>
      title="Mark EMIs Paid Up To a Date"
      icon="tick-circle"
      submitText="Mark Paid"
      initialValues={{ upTo: todayIso() }}
      fields={['upTo']}
      validate={validate}
      fallback="Failed to mark the EMIs paid"
      success="EMIs marked paid"
      send={(values, idempotencyKey) => markUpTo({ id: loanId, idempotencyKey, body: { upTo: values.upTo } })}
      onClose={onClose}
    >
      {(values) => {
        const emis = emisToMarkUpTo(rows, values.upTo);
        const first = emis[0];
        const last = emis.at(-1);
        return (
          <>
            <InputGroupField name="upTo" label="Paid up to" type="date" autoFocus />
            <Callout icon="info-sign" className="kosh-whatif-hint" role="status">
              {first && last
                ? `This marks ${emis.length} ${emis.length === 1 ? 'EMI' : 'EMIs'} paid, each on its due date (EMI ${first.paymentNumber}, ${formatDate(first.emiDate)}${emis.length > 1 ? ` to EMI ${last.paymentNumber}, ${formatDate(last.emiDate)}` : ''}). EMIs already marked paid, matched or missed keep their marks. One Undo takes it back.`
                : 'No EMI due by this date is left unmarked.'}
            </Callout>
          </>
        );
      }}
    </LoanChangeDialog>
  );
}
