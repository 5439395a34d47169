import {
  bankStreamId,
  catalogDecider,
  type LoanFields,
  loanTypeStreamId,
  type RegisterUser,
} from '@kosh/domain';
import { recordedStream } from './read-model-spec';

/** Ids and terms the read models' SQL specs share. */
export const userId = '6f1c2d7e-0000-4000-8000-000000000001';
export const otherUserId = '6f1c2d7e-0000-4000-8000-000000000002';
export const loanId = '0b7d8f4e-0000-4000-8000-00000000000a';
export const transactionId = '1e7d8f4e-0000-4000-8000-000000000001';
export const now = '2026-01-10T10:00:00.000Z';
export const later = '2026-02-01T09:00:00.000Z';

/** A 2-year loan started in January 2025: 24 EMIs, the first on 2025-02-15. */
export const loanFields: LoanFields = {
  bankId: 1,
  loanTypeId: 2,
  accountNumber: 'HL00012345',
  shortDetail: 'Flat in Pune',
  principalAmount: 12000000,
  interestRate: 9,
  isInterestRateYearly: true,
  duration: 2,
  isDurationYearly: true,
  startDate: '2025-01-15',
  processingFee: 100000,
  hasGst: false,
  gstPercentage: 0,
  emisAutoDebited: true,
  processingFeeGst: true,
};

/** Asha signs up: her verification link's token hash is 'hash-1'. */
export const registerUser: RegisterUser = {
  type: 'RegisterUser',
  data: {
    userId,
    firstName: 'Asha',
    lastName: 'Rao',
    email: 'asha@example.in',
    passwordHash: 'argon2-hash',
    verification: { tokenHash: 'hash-1', sealedToken: 'sealed-1', expiresAt: '2026-01-11T10:00:00.000Z' },
    now,
  },
};

/** The seeded catalog's events (owned by nobody): lender 1 HDFC Bank, loan type 2 Home Loan. */
export const seededCatalog = () => [
  ...recordedStream(catalogDecider, bankStreamId(1), null).decide({
    type: 'AddBank',
    data: { bankId: 1, bankName: 'HDFC Bank', branchName: null, ownerUserId: null, now },
  }),
  ...recordedStream(catalogDecider, loanTypeStreamId(2), null).decide({
    type: 'AddLoanType',
    data: { loanTypeId: 2, typeName: 'Home Loan', ownerUserId: null, now },
  }),
];
