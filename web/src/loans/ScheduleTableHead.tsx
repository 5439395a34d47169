/**
 * The schedule table's column heads: the schedule screen's (with its Payment column, where EMIs
 * are marked paid) and the version diff's.
 */
export function ScheduleTableHead({ payment = false }: { payment?: boolean }) {
  return (
    <thead>
      <tr aria-rowindex={1}>
        <th className="kosh-num">#</th>
        <th>Payment Date</th>
        <th className="kosh-num">Principal</th>
        <th className="kosh-num">Interest</th>
        <th className="kosh-num">GST</th>
        <th className="kosh-num">EMI Amount</th>
        <th className="kosh-num">Remaining Balance</th>
        {payment ? <th>Payment</th> : null}
      </tr>
    </thead>
  );
}
