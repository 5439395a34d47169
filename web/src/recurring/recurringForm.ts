import {
  parseRecurring,
  RECURRING_FREQUENCIES,
  RECURRING_FREQUENCY_LABELS,
  type RecurringInput,
} from '@kosh/domain';
import { amountText, formValidator } from '../forms';
import type { Recurring, RecurringBody } from './recurringApi';

/** The form holds the wire names (also the validator's field names); a cleared field is undefined. */
export type RecurringValues = {
  transaction_type?: string;
  amount?: string;
  notes?: string;
  payee?: string;
  category_id?: string;
  account_id?: string;
  frequency?: string;
  day_of_month?: string;
  start_date?: string;
  end_date?: string;
};

export const RECURRING_FORM_FIELDS: readonly string[] = [
  'transaction_type',
  'amount',
  'notes',
  'payee',
  'category_id',
  'account_id',
  'frequency',
  'day_of_month',
  'start_date',
  'end_date',
] satisfies readonly (keyof RecurringValues)[];

export const FREQUENCY_OPTIONS = RECURRING_FREQUENCIES.map((f) => ({
  value: f,
  label: RECURRING_FREQUENCY_LABELS[f],
}));

export const DAY_OPTIONS = [
  ...Array.from({ length: 31 }, (_, i) => ({ value: String(i + 1), label: `Day ${i + 1}` })),
  { value: 'last', label: 'Last day of the month' },
];

const validateTyped = formValidator<RecurringInput>((input) => {
  const parsed = parseRecurring(input);
  return parsed.ok ? [] : parsed.errors;
});

export const validateRecurringForm = (values: RecurringValues) =>
  validateTyped({ ...values, amount: amountText(values.amount) });

export function recurringInitialValues(editing: Recurring | null, today: string): RecurringValues {
  if (!editing)
    return {
      transaction_type: 'D',
      frequency: 'monthly',
      day_of_month: today.slice(8, 10).replace(/^0/, ''),
      start_date: today,
    };
  return {
    transaction_type: editing.transaction_type,
    amount: editing.amount.toFixed(2),
    notes: editing.notes,
    payee: editing.payee ?? '',
    category_id: editing.category_id ?? '',
    account_id: editing.account_id ?? '',
    frequency: editing.frequency,
    day_of_month: editing.day_of_month === null ? 'last' : String(editing.day_of_month),
    start_date: editing.start_date,
    end_date: editing.end_date ?? '',
  };
}

const blankToNull = (text: string | undefined): string | null => (text?.trim() ? text.trim() : null);

export function recurringBodyOf(values: RecurringValues): RecurringBody {
  const day = blankToNull(values.day_of_month);
  return {
    transaction_type: values.transaction_type === 'C' ? 'C' : 'D',
    amount: Number(amountText(values.amount)),
    notes: (values.notes ?? '').trim(),
    payee: blankToNull(values.payee),
    category_id: blankToNull(values.category_id),
    account_id: blankToNull(values.account_id),
    frequency: (values.frequency ?? 'monthly') as RecurringBody['frequency'],
    day_of_month: day === null || day === 'last' ? null : Number(day),
    start_date: values.start_date ?? '',
    end_date: blankToNull(values.end_date),
  };
}

/** "Monthly on day 5", "Quarterly on the last day". */
export function scheduleText(entry: Pick<Recurring, 'frequency' | 'day_of_month'>): string {
  const day = entry.day_of_month === null ? 'the last day' : `day ${entry.day_of_month}`;
  return `${RECURRING_FREQUENCY_LABELS[entry.frequency]} on ${day}`;
}
