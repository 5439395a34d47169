import type { DomainEvent } from '../shared/messages';

/** A lender. `ownerUserId` null: part of the seeded catalog, visible to everyone. */
export type BankAdded = DomainEvent<
  'BankAdded',
  Readonly<{
    bankId: number;
    bankName: string;
    branchName: string | null;
    ownerUserId: string | null;
    addedAt: string;
  }>
>;

/** A kind of loan. `ownerUserId` null: part of the seeded catalog, visible to everyone. */
export type LoanTypeAdded = DomainEvent<
  'LoanTypeAdded',
  Readonly<{ loanTypeId: number; typeName: string; ownerUserId: string | null; addedAt: string }>
>;

export type CatalogEvent = BankAdded | LoanTypeAdded;

export const catalogEventTypes = ['BankAdded', 'LoanTypeAdded'] as const;

export const bankStreamId = (bankId: number): string => `bank-${bankId}`;
export const loanTypeStreamId = (loanTypeId: number): string => `loantype-${loanTypeId}`;
