import type { WireBank, WireLoanType } from '@kosh/contract';
import type { BankRow, LoanTypeRow } from '@kosh/projections';

export const toWireBank = (bank: BankRow): WireBank => ({
  id: bank.id,
  bank_name: bank.bankName,
  branch_name: bank.branchName,
  is_custom: bank.userId !== null,
});

export const toWireLoanType = (loanType: LoanTypeRow): WireLoanType => ({
  id: loanType.id,
  type_name: loanType.typeName,
  is_custom: loanType.userId !== null,
});
