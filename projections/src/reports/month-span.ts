/**
 * A range of business dates cut where `transaction_months` can answer it: the whole months it
 * covers (first days, inclusive), read from the month cells, and the days at its edges outside
 * them, read from the rows. A range inside one month that is not the whole month is all edge.
 */
export type MonthSpan = Readonly<{
  /** First day of the first and of the last whole month, or null when it covers none. */
  months: readonly [string, string] | null;
  /** At most two `[from, to]` ranges of days (inclusive). */
  edges: readonly (readonly [string, string])[];
}>;

const iso = (date: Date) => date.toISOString().slice(0, 10);
const parts = (date: string) => [Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1] as const;
/** The first day of the month `shift` months after `date`'s. */
const monthStart = (date: string, shift = 0) => {
  const [y, m] = parts(date);
  return iso(new Date(Date.UTC(y, m + shift, 1)));
};
/** The last day of `date`'s month. */
const monthEnd = (date: string) => {
  const [y, m] = parts(date);
  return iso(new Date(Date.UTC(y, m + 1, 0)));
};
const dayBefore = (date: string) => iso(new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000));

/** `from` ≤ `to`, both YYYY-MM-DD. */
export function monthSpan(from: string, to: string): MonthSpan {
  const first = from.endsWith('-01') ? from : monthStart(from, 1);
  const last = to === monthEnd(to) ? monthStart(to) : monthStart(to, -1);
  if (first > last) return { months: null, edges: [[from, to]] };
  const edges: (readonly [string, string])[] = [];
  if (from < first) edges.push([from, dayBefore(first)]);
  if (to > monthEnd(last)) edges.push([monthStart(to), to]);
  return { months: [first, last], edges };
}
