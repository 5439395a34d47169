import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import { transferDecider } from '../transfer/decide';
import { parseAccount, parseTransfer } from '../validation/account';
import { accountDecider } from './decide';
import type { AccountEvent } from './events';
import type { AccountDetails } from './fields';

const given = DeciderSpecification.for(accountDecider);
const accountId = '3f1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f30';
const otherAccountId = '4a1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f31';
const userId = 'b7e1a4c2-5f6d-4e3a-8b9c-0d1e2f3a4b5c';
const now = '2025-03-31T10:00:00.000Z';

const details: AccountDetails = {
  name: 'HDFC Savings',
  kind: 'savings',
  bankId: null,
  bankName: 'HDFC Bank',
  lastFour: '1234',
  openingBalance: 1_000_000,
  openingDate: '2025-03-01',
};
const opened: AccountEvent = {
  type: 'AccountOpened',
  data: { accountId, userId, ...details, openedAt: now },
};
const ids = { accountId, userId, now };

describe('OpenAccount', () => {
  it('opens with trimmed name', () => {
    given([])
      .when({ type: 'OpenAccount', data: { ...details, name: ' HDFC Savings ', ...ids } })
      .then([opened]);
  });
  it('refuses a negative opening balance except on a credit card', () => {
    given([])
      .when({ type: 'OpenAccount', data: { ...details, openingBalance: -1, ...ids } })
      .thenThrows(ValidationError, (e) =>
        expect(e.errors).toEqual([
          { field: 'opening_balance', message: 'Opening balance can be negative only for a credit card' },
        ]),
      );
    given([])
      .when({ type: 'OpenAccount', data: { ...details, kind: 'credit-card', openingBalance: -1, ...ids } })
      .then([
        {
          type: 'AccountOpened',
          data: { accountId, userId, ...details, kind: 'credit-card', openingBalance: -1, openedAt: now },
        },
      ]);
  });
});

describe('UpdateAccount', () => {
  it('records only what changed, with every value before; nothing when nothing changed', () => {
    given([opened])
      .when({ type: 'UpdateAccount', data: { ...details, lastFour: '9876', ...ids } })
      .then([
        {
          type: 'AccountUpdated',
          data: { accountId, userId, changes: { lastFour: '9876' }, previous: details, updatedAt: now },
        },
      ]);
    given([opened])
      .when({ type: 'UpdateAccount', data: { ...details, ...ids } })
      .then([]);
  });
  it("treats another user's or a missing account as not found", () => {
    given([opened])
      .when({ type: 'UpdateAccount', data: { ...details, ...ids, userId: 'intruder' } })
      .thenThrows(NotFoundError);
    given([])
      .when({ type: 'UpdateAccount', data: { ...details, ...ids } })
      .thenThrows(NotFoundError);
  });
});

describe('DeleteAccount', () => {
  it('deletes an empty account and refuses one with entries', () => {
    given([opened])
      .when({ type: 'DeleteAccount', data: { ...ids, entryCount: 0 } })
      .then([{ type: 'AccountDeleted', data: { accountId, userId, previous: details, deletedAt: now } }]);
    given([opened])
      .when({ type: 'DeleteAccount', data: { ...ids, entryCount: 2 } })
      .thenThrows(ConflictError);
  });
});

describe('SaveImportMapping', () => {
  const mapping = { date: 'Txn Dt', narration: 'Particulars', amount: 'Amount', drCr: 'Type' };
  const save = {
    type: 'SaveImportMapping' as const,
    data: {
      ...ids,
      headerKey: 'txndt|particulars|amount|type',
      header: ['Txn Dt', 'Particulars', 'Amount', 'Type'],
      mapping,
    },
  };
  const saved: AccountEvent = {
    type: 'AccountImportMappingSaved',
    data: {
      accountId,
      userId,
      headerKey: save.data.headerKey,
      header: save.data.header,
      mapping,
      savedAt: now,
    },
  };
  it('remembers a mapping for its header shape, once', () => {
    given([opened]).when(save).then([saved]);
    given([opened, saved]).when(save).then([]);
    // The same columns written otherwise are the same mapping.
    given([opened, saved])
      .when({ ...save, data: { ...save.data, mapping: { ...mapping, amount: 'AMOUNT ' } } })
      .then([]);
  });
  it('replaces the mapping of that shape when another is chosen', () => {
    const other = { ...mapping, narration: 'Remarks' };
    given([opened, saved])
      .when({ ...save, data: { ...save.data, mapping: other } })
      .then([{ ...saved, data: { ...saved.data, mapping: other } }]);
  });
  it("refuses another user's, a deleted or a missing account, and an unusable mapping", () => {
    given([opened])
      .when({ ...save, data: { ...save.data, userId: 'someone' } })
      .thenThrows(NotFoundError);
    given([]).when(save).thenThrows(NotFoundError);
    given([opened])
      .when({ ...save, data: { ...save.data, mapping: { date: 'Txn Dt', narration: 'Particulars' } } })
      .thenThrows(ValidationError);
  });
});

describe('account and transfer input', () => {
  it('reads Indian text into paise and names each bad field', () => {
    expect(
      parseAccount({
        name: 'Card',
        kind: 'credit-card',
        bank_id: '7',
        opening_balance: '-2500.5',
        opening_date: '2025-03-01',
      }),
    ).toEqual({
      ok: true,
      value: {
        name: 'Card',
        kind: 'credit-card',
        bankId: 7,
        bankName: null,
        lastFour: null,
        openingBalance: -250_050,
        openingDate: '2025-03-01',
      },
    });
    expect(
      parseAccount({
        name: 'x',
        kind: 'cash',
        bank_id: 3,
        bank_name: 'Typed',
        opening_balance: 0,
        opening_date: '2025-01-01',
      }),
    ).toEqual({
      ok: false,
      errors: [{ field: 'bank_id', message: 'Choose a bank from the list or type its name, not both' }],
    });
    expect(parseTransfer({})).toEqual({
      ok: false,
      errors: [
        { field: 'from_account_id', message: 'From account is required' },
        { field: 'to_account_id', message: 'To account is required' },
        { field: 'amount', message: 'Amount must be greater than 0' },
        { field: 'transfer_date', message: 'Transfer date is required' },
      ],
    });
  });
});

describe('transfers', () => {
  const fields = {
    fromAccountId: accountId,
    toAccountId: otherAccountId,
    amount: 500_00,
    transferDate: '2025-03-04',
    notes: 'Top up',
  };
  const givenTransfer = DeciderSpecification.for(transferDecider);
  const transferId = '5b1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f32';
  it('records one event, and deletes it once by its owner only', () => {
    const recorded = {
      type: 'TransferRecorded' as const,
      data: { transferId, userId, ...fields, recordedAt: now },
    };
    givenTransfer([])
      .when({ type: 'RecordTransfer', data: { ...fields, notes: ' Top up ', transferId, userId, now } })
      .then([recorded]);
    givenTransfer([recorded])
      .when({ type: 'DeleteTransfer', data: { transferId, userId: 'intruder', now } })
      .thenThrows(NotFoundError);
    givenTransfer([recorded])
      .when({ type: 'DeleteTransfer', data: { transferId, userId, now } })
      .then([{ type: 'TransferDeleted', data: { transferId, userId, previous: fields, deletedAt: now } }]);
  });
  it('refuses a transfer to the same account', () => {
    givenTransfer([])
      .when({ type: 'RecordTransfer', data: { ...fields, toAccountId: accountId, transferId, userId, now } })
      .thenThrows(ValidationError, (e) =>
        expect(e.errors).toEqual([
          { field: 'to_account_id', message: 'To account must differ from the from account' },
        ]),
      );
  });
});
