import type { BankAdded, LoanTypeAdded } from './events';

/**
 * The lenders people in India most often borrow from (public and private sector banks,
 * housing-finance companies, NBFCs), each with its head-office branch. Ids are fixed: seeding
 * appends these with fixed event ids, so running it again changes nothing. Never renumber.
 */
export const SEED_BANKS: readonly { bankId: number; bankName: string; branchName: string }[] = [
  { bankId: 1, bankName: 'State Bank of India', branchName: 'Head Office, Mumbai' },
  { bankId: 2, bankName: 'Punjab National Bank', branchName: 'Head Office, New Delhi' },
  { bankId: 3, bankName: 'Bank of Baroda', branchName: 'Head Office, Vadodara' },
  { bankId: 4, bankName: 'Canara Bank', branchName: 'Head Office, Bengaluru' },
  { bankId: 5, bankName: 'Union Bank of India', branchName: 'Head Office, Mumbai' },
  { bankId: 6, bankName: 'Bank of India', branchName: 'Head Office, Mumbai' },
  { bankId: 7, bankName: 'Indian Bank', branchName: 'Head Office, Chennai' },
  { bankId: 8, bankName: 'Central Bank of India', branchName: 'Head Office, Mumbai' },
  { bankId: 9, bankName: 'Indian Overseas Bank', branchName: 'Head Office, Chennai' },
  { bankId: 10, bankName: 'UCO Bank', branchName: 'Head Office, Kolkata' },
  { bankId: 11, bankName: 'Bank of Maharashtra', branchName: 'Head Office, Pune' },
  { bankId: 12, bankName: 'HDFC Bank', branchName: 'Head Office, Mumbai' },
  { bankId: 13, bankName: 'ICICI Bank', branchName: 'Head Office, Mumbai' },
  { bankId: 14, bankName: 'Axis Bank', branchName: 'Head Office, Mumbai' },
  { bankId: 15, bankName: 'Kotak Mahindra Bank', branchName: 'Head Office, Mumbai' },
  { bankId: 16, bankName: 'IndusInd Bank', branchName: 'Head Office, Pune' },
  { bankId: 17, bankName: 'Yes Bank', branchName: 'Head Office, Mumbai' },
  { bankId: 18, bankName: 'IDFC FIRST Bank', branchName: 'Head Office, Mumbai' },
  { bankId: 19, bankName: 'Federal Bank', branchName: 'Head Office, Aluva' },
  { bankId: 20, bankName: 'South Indian Bank', branchName: 'Head Office, Thrissur' },
  { bankId: 21, bankName: 'LIC Housing Finance', branchName: 'Head Office, Mumbai' },
  { bankId: 22, bankName: 'PNB Housing Finance', branchName: 'Head Office, New Delhi' },
  { bankId: 23, bankName: 'Bajaj Housing Finance', branchName: 'Head Office, Pune' },
  { bankId: 24, bankName: 'Bajaj Finance', branchName: 'Head Office, Pune' },
  { bankId: 25, bankName: 'Tata Capital', branchName: 'Head Office, Mumbai' },
  { bankId: 26, bankName: 'Shriram Finance', branchName: 'Head Office, Chennai' },
  { bankId: 27, bankName: 'Muthoot Finance', branchName: 'Head Office, Kochi' },
  { bankId: 28, bankName: 'Mahindra Finance', branchName: 'Head Office, Mumbai' },
  { bankId: 29, bankName: 'Cholamandalam Investment and Finance', branchName: 'Head Office, Chennai' },
  { bankId: 30, bankName: 'Aditya Birla Capital', branchName: 'Head Office, Mumbai' },
];

export const SEED_LOAN_TYPES: readonly { loanTypeId: number; typeName: string }[] = [
  { loanTypeId: 1, typeName: 'Home Loan' },
  { loanTypeId: 2, typeName: 'Personal Loan' },
  { loanTypeId: 3, typeName: 'Car Loan' },
  { loanTypeId: 4, typeName: 'Two-Wheeler Loan' },
  { loanTypeId: 5, typeName: 'Education Loan' },
  { loanTypeId: 6, typeName: 'Gold Loan' },
  { loanTypeId: 7, typeName: 'Business Loan' },
  { loanTypeId: 8, typeName: 'Loan Against Property' },
  { loanTypeId: 9, typeName: 'Consumer Durable Loan' },
  { loanTypeId: 10, typeName: 'Credit Card EMI' },
  { loanTypeId: 11, typeName: 'Loan Against Fixed Deposit' },
];

/** User-added banks and loan types take ids above this, so seeds can grow without a clash. */
export const FIRST_USER_CATALOG_ID = 1001;

/** The seed as events, each with the fixed event id it is appended under. */
export function catalogSeedEvents(addedAt: string): { eventId: string; event: BankAdded | LoanTypeAdded }[] {
  return [
    ...SEED_BANKS.map((bank) => ({
      eventId: `seed-bank-${bank.bankId}`,
      event: { type: 'BankAdded', data: { ...bank, ownerUserId: null, addedAt } } as BankAdded,
    })),
    ...SEED_LOAN_TYPES.map((loanType) => ({
      eventId: `seed-loantype-${loanType.loanTypeId}`,
      event: { type: 'LoanTypeAdded', data: { ...loanType, ownerUserId: null, addedAt } } as LoanTypeAdded,
    })),
  ];
}
