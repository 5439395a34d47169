import { Card, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { bankLabel } from './loanDisplay';
import type { Bank } from './loansApi';

type Props = {
  search: string;
  onSearch: (text: string) => void;
  bankId: string;
  onBank: (bankId: string) => void;
  banks: readonly Bank[];
};

/** Search applies as the user types (debounced by the page), the bank at once (spec section 2). */
export function LoanFilterPanel({ search, onSearch, bankId, onBank, banks }: Props) {
  return (
    <Card className="kosh-panel">
      <div className="kosh-toolbar">
        <FormGroup label="Search" labelFor="loan-search">
          <InputGroup
            id="loan-search"
            type="search"
            leftIcon="search"
            placeholder="Search by account number, loan type, bank name or principal amount"
            value={search}
            onChange={(e) => onSearch(e.target.value)}
          />
        </FormGroup>
        <FormGroup label="Bank" labelFor="loan-bank">
          <HTMLSelect
            id="loan-bank"
            fill
            value={bankId}
            onChange={(e) => onBank(e.target.value)}
            options={[
              { value: '', label: 'All Banks' },
              ...banks.map((bank) => ({ value: String(bank.id), label: bankLabel(bank) })),
            ]}
          />
        </FormGroup>
      </div>
    </Card>
  );
}
