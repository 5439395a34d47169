import type { NOTIFICATION_FIELDS, RECURRING_FIELDS, WireNames } from '@kosh/domain';
import { type Static, Type } from 'typebox';
import { MessageResponse, success } from './envelope';
import { AsOfParam, IdParams, Loose, QueryText } from './request';

/**
 * Recurring entries, reminder preferences and the cash-flow forecast (issue 31), wire names in
 * snake_case. Body fields are loose so a bad value gets its own message (validation/recurring.ts).
 */
export const RecurringBody = Type.Object({
  transaction_type: Loose('C (credit) or D (debit)'),
  amount: Loose('Rupees, greater than 0, at most 2 decimals'),
  notes: Loose('What each posted transaction says, at most 255 characters'),
  payee: Loose('Who pays or is paid, at most 100 characters, or empty'),
  category_id: Loose('A category of yours, or empty'),
  account_id: Loose('An account of yours, or empty'),
  frequency: Loose('monthly, quarterly or yearly'),
  day_of_month: Loose('1 to 31 (a shorter month takes its last day), or "last" / empty for the last day'),
  start_date: Loose('YYYY-MM-DD: the first occurrence is the first scheduled day on or after it'),
  end_date: Loose('YYYY-MM-DD, or empty: no end'),
});
export type RecurringBody = Static<typeof RecurringBody>;
RecurringBody.properties satisfies Record<WireNames<typeof RECURRING_FIELDS>, unknown>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const WireOccurrence = Type.Object({
  recurring_id: Type.String(),
  date: Type.String({ description: 'YYYY-MM-DD: the scheduled date' }),
  transaction_type: Type.Unsafe<'C' | 'D'>({ type: 'string', enum: ['C', 'D'] }),
  amount: Type.Number({ description: 'Rupees: what it posts (after a change)' }),
  notes: Type.String(),
  payee: Nullable(Type.String()),
  status: Type.Unsafe<'due' | 'skipped' | 'changed' | 'posted'>({
    type: 'string',
    enum: ['due', 'skipped', 'changed', 'posted'],
  }),
  transaction_id: Nullable(Type.String({ description: 'The posted transaction' })),
});
export type WireOccurrence = Static<typeof WireOccurrence>;

export const WireRecurring = Type.Object({
  id: Type.String(),
  transaction_type: Type.Unsafe<'C' | 'D'>({ type: 'string', enum: ['C', 'D'] }),
  amount: Type.Number({ description: 'Rupees, two decimals' }),
  notes: Type.String(),
  payee: Nullable(Type.String()),
  category_id: Nullable(Type.String()),
  account_id: Nullable(Type.String()),
  frequency: Type.Unsafe<'monthly' | 'quarterly' | 'yearly'>({
    type: 'string',
    enum: ['monthly', 'quarterly', 'yearly'],
  }),
  day_of_month: Type.Union([Type.Integer(), Type.Null()], { description: 'null: the last day' }),
  start_date: Type.String(),
  end_date: Nullable(Type.String()),
  next_occurrence: Nullable(Type.String({ description: 'The next date not yet posted or skipped' })),
  created_at: Type.String(),
  updated_at: Type.String(),
  version: Type.Integer(),
});
export type WireRecurring = Static<typeof WireRecurring>;
WireRecurring.properties satisfies Record<WireNames<typeof RECURRING_FIELDS>, unknown>;

export const RecurringParams = IdParams;
export const RecurringListResponse = success(Type.Object({ recurring: Type.Array(WireRecurring) }));
export const RecurringResponse = success(Type.Object({ recurring: WireRecurring }));
export const RecurringDeletedResponse = MessageResponse;

export const UpcomingQuery = Type.Object({
  days: QueryText('How many days ahead, 1 to 366 (default 60)'),
  as_of: AsOfParam,
});
export type UpcomingQuery = Static<typeof UpcomingQuery>;
export const UpcomingResponse = success(
  Type.Object({ from: Type.String(), to: Type.String(), occurrences: Type.Array(WireOccurrence) }),
);

export const OccurrenceParams = Type.Object({ id: Type.String(), date: Type.String() });
export type OccurrenceParams = Static<typeof OccurrenceParams>;
export const OccurrenceChangeBody = Type.Object({
  amount: Loose('Rupees, greater than 0'),
  notes: Loose('At most 255 characters'),
});

export const NotificationBody = Type.Object({
  emi_due: Type.Optional(Type.Unknown({ description: 'true: mail a reminder before each unpaid EMI' })),
  recurring_due: Type.Optional(Type.Unknown({ description: 'true: mail a reminder before each occurrence' })),
  budget_crossed: Type.Optional(
    Type.Unknown({ description: "true: mail once a month's budget is overspent" }),
  ),
  days_before: Loose('0 to 30 (default 3)'),
});
NotificationBody.properties satisfies Record<WireNames<typeof NOTIFICATION_FIELDS>, unknown>;

export const WireNotifications = Type.Object({
  emi_due: Type.Boolean(),
  recurring_due: Type.Boolean(),
  budget_crossed: Type.Boolean(),
  days_before: Type.Integer(),
});
export type WireNotifications = Static<typeof WireNotifications>;
export const NotificationsResponse = success(Type.Object({ notifications: WireNotifications }));

export const CashFlowQuery = Type.Object({
  as_of: AsOfParam,
  format: QueryText('csv: the table as CSV (UTF-8 with BOM)'),
});
export type CashFlowQuery = Static<typeof CashFlowQuery>;

export const WireCashFlowItem = Type.Object({
  date: Type.String(),
  kind: Type.Unsafe<'recurring' | 'emi'>({ type: 'string', enum: ['recurring', 'emi'] }),
  description: Type.String(),
  inflow: Type.Number({ description: 'Rupees' }),
  outflow: Type.Number({ description: 'Rupees' }),
  source_id: Type.String({ description: 'The recurring entry or the loan' }),
});
export const WireCashFlowMonth = Type.Object({
  month: Type.String({ description: 'YYYY-MM' }),
  inflow: Type.Number(),
  outflow: Type.Number(),
  net: Type.Number(),
  cumulative_net: Type.Number(),
});
export const CashFlowResponse = success(
  Type.Object({
    from: Type.String(),
    to: Type.String(),
    months: Type.Array(WireCashFlowMonth),
    items: Type.Array(WireCashFlowItem),
    totals: Type.Object({ inflow: Type.Number(), outflow: Type.Number(), net: Type.Number() }),
  }),
);
export type CashFlowResponse = Static<typeof CashFlowResponse>;
