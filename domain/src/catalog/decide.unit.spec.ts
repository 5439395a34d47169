import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import { CATALOG_MESSAGES, catalogDecider } from './decide';
import { catalogSeedEvents, FIRST_USER_CATALOG_ID, SEED_BANKS, SEED_LOAN_TYPES } from './seed';

const given = DeciderSpecification.for(catalogDecider);
const userId = '6f1c2d7e-0000-4000-8000-000000000001';
const now = '2026-01-10T10:00:00.000Z';

describe('AddBank', () => {
  it('adds a bank only its owner sees, trimming the names', () => {
    given([])
      .when({
        type: 'AddBank',
        data: { bankId: 1001, bankName: ' Saraswat Bank ', branchName: ' Dadar ', ownerUserId: userId, now },
      })
      .then([
        {
          type: 'BankAdded',
          data: {
            bankId: 1001,
            bankName: 'Saraswat Bank',
            branchName: 'Dadar',
            ownerUserId: userId,
            addedAt: now,
          },
        },
      ]);
  });

  it('keeps no branch when none is given', () => {
    given([])
      .when({
        type: 'AddBank',
        data: { bankId: 1002, bankName: 'Saraswat Bank', branchName: '', ownerUserId: userId, now },
      })
      .then([
        {
          type: 'BankAdded',
          data: {
            bankId: 1002,
            bankName: 'Saraswat Bank',
            branchName: null,
            ownerUserId: userId,
            addedAt: now,
          },
        },
      ]);
  });

  it('needs a bank name of at most 100 characters', () => {
    given([])
      .when({
        type: 'AddBank',
        data: { bankId: 1003, bankName: '  ', branchName: null, ownerUserId: userId, now },
      })
      .thenThrows(ValidationError, (error) =>
        expect(error.errors).toEqual([{ field: 'bank_name', message: CATALOG_MESSAGES.bankNameRequired }]),
      );
    given([])
      .when({
        type: 'AddBank',
        data: {
          bankId: 1003,
          bankName: 'x'.repeat(101),
          branchName: 'y'.repeat(101),
          ownerUserId: userId,
          now,
        },
      })
      .thenThrows(ValidationError, (error) =>
        expect(error.errors).toEqual([
          { field: 'bank_name', message: CATALOG_MESSAGES.bankNameTooLong },
          { field: 'branch_name', message: CATALOG_MESSAGES.branchNameTooLong },
        ]),
      );
  });

  it('refuses an id already used', () => {
    given([
      {
        type: 'BankAdded',
        data: { bankId: 1001, bankName: 'A', branchName: null, ownerUserId: userId, addedAt: now },
      },
    ])
      .when({
        type: 'AddBank',
        data: { bankId: 1001, bankName: 'B', branchName: null, ownerUserId: userId, now },
      })
      .thenThrows(ConflictError);
  });
});

describe('AddLoanType', () => {
  it('adds a loan type', () => {
    given([])
      .when({
        type: 'AddLoanType',
        data: { loanTypeId: 1001, typeName: 'Tractor Loan', ownerUserId: userId, now },
      })
      .then([
        {
          type: 'LoanTypeAdded',
          data: { loanTypeId: 1001, typeName: 'Tractor Loan', ownerUserId: userId, addedAt: now },
        },
      ]);
  });

  it('needs a name', () => {
    given([])
      .when({ type: 'AddLoanType', data: { loanTypeId: 1001, typeName: '', ownerUserId: userId, now } })
      .thenThrows(ValidationError, (error) =>
        expect(error.errors).toEqual([{ field: 'type_name', message: CATALOG_MESSAGES.typeNameRequired }]),
      );
  });
});

describe('seed catalog', () => {
  it('holds at least 20 lenders with a head office and the 10 loan types the product names', () => {
    expect(SEED_BANKS.length).toBeGreaterThanOrEqual(20);
    expect(SEED_BANKS.every((bank) => bank.branchName.startsWith('Head Office'))).toBe(true);
    expect(SEED_LOAN_TYPES.map((type) => type.typeName)).toEqual(
      expect.arrayContaining([
        'Home Loan',
        'Personal Loan',
        'Car Loan',
        'Two-Wheeler Loan',
        'Education Loan',
        'Gold Loan',
        'Business Loan',
        'Loan Against Property',
        'Consumer Durable Loan',
        'Credit Card EMI',
      ]),
    );
  });

  it('uses fixed, unique ids below the first user-added id and fixed event ids', () => {
    const ids = SEED_BANKS.map((bank) => bank.bankId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.max(...ids, ...SEED_LOAN_TYPES.map((type) => type.loanTypeId))).toBeLessThan(
      FIRST_USER_CATALOG_ID,
    );
    const first = catalogSeedEvents(now).map((seed) => seed.eventId);
    expect(catalogSeedEvents('2030-01-01T00:00:00.000Z').map((seed) => seed.eventId)).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
  });
});
