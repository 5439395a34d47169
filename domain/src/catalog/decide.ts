import type { Decider } from '../shared/decider';
import { ConflictError, type FieldError, ValidationError } from '../shared/errors';
import { assertNever, type Command } from '../shared/messages';
import type { CatalogEvent } from './events';

export const CATALOG_MESSAGES = {
  bankNameRequired: 'Bank name is required',
  bankNameTooLong: 'Bank name cannot exceed 100 characters',
  branchNameTooLong: 'Branch name cannot exceed 100 characters',
  typeNameRequired: 'Loan type name is required',
  typeNameTooLong: 'Loan type name cannot exceed 100 characters',
  bankNotFound: 'Bank not found',
  loanTypeNotFound: 'Loan type not found',
} as const;

const NAME_MAX = 100;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** Rules for `POST /api/banks` (`bank_name`, `branch_name`); fields are the wire names. */
export function validateBank(input: { bankName?: unknown; branchName?: unknown }): FieldError[] {
  const errors: FieldError[] = [];
  const name = text(input.bankName);
  if (name === '') errors.push({ field: 'bank_name', message: CATALOG_MESSAGES.bankNameRequired });
  else if ([...name].length > NAME_MAX)
    errors.push({ field: 'bank_name', message: CATALOG_MESSAGES.bankNameTooLong });
  if ([...text(input.branchName)].length > NAME_MAX)
    errors.push({ field: 'branch_name', message: CATALOG_MESSAGES.branchNameTooLong });
  return errors;
}

/** Rules for `POST /api/banks/loan-types` (`type_name`). */
export function validateLoanType(input: { typeName?: unknown }): FieldError[] {
  const name = text(input.typeName);
  if (name === '') return [{ field: 'type_name', message: CATALOG_MESSAGES.typeNameRequired }];
  if ([...name].length > NAME_MAX) return [{ field: 'type_name', message: CATALOG_MESSAGES.typeNameTooLong }];
  return [];
}

/** `ownerUserId` null adds to the shared catalog (seeding); a user id adds an entry only they see. */
export type AddBank = Command<
  'AddBank',
  Readonly<{
    bankId: number;
    bankName: string;
    branchName: string | null;
    ownerUserId: string | null;
    now: string;
  }>
>;
export type AddLoanType = Command<
  'AddLoanType',
  Readonly<{ loanTypeId: number; typeName: string; ownerUserId: string | null; now: string }>
>;
export type CatalogCommand = AddBank | AddLoanType;

/** One stream per entry (`bank-{id}`, `loantype-{id}`): it exists once added. */
export type CatalogEntryState = Readonly<{ added: boolean }>;

function decideCatalog(command: CatalogCommand, state: CatalogEntryState): CatalogEvent[] {
  if (state.added) throw new ConflictError('Catalog entry already exists');
  switch (command.type) {
    case 'AddBank': {
      const { bankId, bankName, branchName, ownerUserId, now } = command.data;
      const errors = validateBank({ bankName, branchName });
      if (errors.length > 0) throw new ValidationError(errors);
      const branch = text(branchName);
      return [
        {
          type: 'BankAdded',
          data: {
            bankId,
            bankName: bankName.trim(),
            branchName: branch === '' ? null : branch,
            ownerUserId,
            addedAt: now,
          },
        },
      ];
    }
    case 'AddLoanType': {
      const { loanTypeId, typeName, ownerUserId, now } = command.data;
      const errors = validateLoanType({ typeName });
      if (errors.length > 0) throw new ValidationError(errors);
      return [
        { type: 'LoanTypeAdded', data: { loanTypeId, typeName: typeName.trim(), ownerUserId, addedAt: now } },
      ];
    }
    default:
      return assertNever(command);
  }
}

export const catalogDecider: Decider<CatalogEntryState, CatalogCommand, CatalogEvent> = {
  initialState: () => ({ added: false }),
  evolve: () => ({ added: true }),
  decide: decideCatalog,
};
