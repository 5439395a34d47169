/** @kosh/projections test support: what the other packages import from it. */
export {
  amountAdded,
  seedEvents,
  TOTALS_TABLE_SQL,
  tableDigest,
  totalsProjection,
} from '../runner/testing/test-projections';
