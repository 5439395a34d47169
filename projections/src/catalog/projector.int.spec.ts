import { bankStreamId, catalogDecider } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { now, seededCatalog, userId } from '../runner/testing/fixtures';
import { readModelSpec, recordedStream } from '../runner/testing/read-model-spec';
import { catalogProjection } from './projector';

const BANKS = 'SELECT id, user_id, bank_name, branch_name FROM catalog_banks ORDER BY id';
const LOAN_TYPES = 'SELECT id, user_id, type_name FROM catalog_loan_types ORDER BY id';

const entries = () => [
  ...seededCatalog(),
  ...recordedStream(catalogDecider, bankStreamId(101), userId).decide({
    type: 'AddBank',
    data: { bankId: 101, bankName: 'Kotak', branchName: 'Baner', ownerUserId: userId, now },
  }),
];

describe('catalog read model in PostgreSQL', () => {
  const spec = readModelSpec(catalogProjection);

  it('holds each lender and loan type added, the seeded ones owned by nobody', async () => {
    await spec.apply(entries());
    expect(await spec.rows(BANKS)).toEqual([
      { id: 1, user_id: null, bank_name: 'HDFC Bank', branch_name: null },
      { id: 101, user_id: userId, bank_name: 'Kotak', branch_name: 'Baner' },
    ]);
    expect(await spec.rows(LOAN_TYPES)).toEqual([{ id: 2, user_id: null, type_name: 'Home Loan' }]);
  });

  it('lands an event delivered twice once', async () => {
    const counts = await spec.landsOnce(entries());
    expect(counts).toEqual([2, 1]);
  });
});
