import type { WireAccount, WireRegisterEntry, WireTransfer } from '@kosh/contract';
import { ACCOUNT_FIELDS, type FieldError, fromPaise, isCalendarDate, wireOf } from '@kosh/domain';
import type { AccountWithBalance, RegisterEntry, TransferRow } from '@kosh/projections';

export function accountToWire(row: AccountWithBalance): WireAccount {
  return {
    id: row.id,
    ...wireOf(ACCOUNT_FIELDS, row),
    // A catalog bank is answered with its name, as the screens show it.
    bank_name: row.shownBankName,
    balance: fromPaise(row.balance),
    entry_count: row.entryCount,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export const entryToWire = (e: RegisterEntry): WireRegisterEntry => ({
  kind: e.kind,
  id: e.id,
  date: e.date,
  notes: e.notes,
  amount: fromPaise(e.amount),
  balance: fromPaise(e.balance),
  counterpart_account_id: e.counterpartAccountId,
  counterpart_account_name: e.counterpartAccountName,
});

export const transferToWire = (row: TransferRow): WireTransfer => ({
  id: row.id,
  from_account_id: row.fromAccountId,
  to_account_id: row.toAccountId,
  amount: fromPaise(row.amount),
  transfer_date: row.transferDate,
  notes: row.notes,
  created_at: row.createdAt,
});

export const PAGE_MESSAGES = {
  page: 'Page must be a whole number of at least 1',
  limit: 'Limit must be a whole number from 1 to 100',
  sortOrder: 'Sort order must be ASC or DESC',
  date: 'Date must be a valid date (YYYY-MM-DD)',
} as const;

/** page, limit (default 50, at most 100) and sort order of a register or transfer list, or the errors. */
export function parsePaging(raw: {
  page?: string;
  limit?: string;
  sort_order?: string;
}):
  | { ok: true; value: { page: number; limit: number; sortOrder: 'ASC' | 'DESC' } }
  | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const whole = (text: string | undefined, fallback: number, max: number, field: string, message: string) => {
    const t = text?.trim();
    if (!t) return fallback;
    if (/^\d{1,10}$/.test(t) && Number(t) >= 1 && Number(t) <= max) return Number(t);
    errors.push({ field, message });
    return fallback;
  };
  const page = whole(raw.page, 1, 1_000_000_000, 'page', PAGE_MESSAGES.page);
  const limit = whole(raw.limit, 50, 100, 'limit', PAGE_MESSAGES.limit);
  const order = raw.sort_order?.trim().toUpperCase() || 'ASC';
  if (order !== 'ASC' && order !== 'DESC')
    errors.push({ field: 'sort_order', message: PAGE_MESSAGES.sortOrder });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: { page, limit, sortOrder: order as 'ASC' | 'DESC' } };
}

/** The `date` of a balance query: null when absent; a 422 message when not a real date. */
export function parseBalanceDate(
  text: string | undefined,
): { ok: true; value: string | null } | { ok: false; errors: FieldError[] } {
  const t = text?.trim();
  if (!t) return { ok: true, value: null };
  return isCalendarDate(t)
    ? { ok: true, value: t }
    : { ok: false, errors: [{ field: 'date', message: PAGE_MESSAGES.date }] };
}
