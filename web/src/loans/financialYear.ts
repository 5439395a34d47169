/** Indian financial years (April–March), written `2025-26` as the certificate API takes them. */

/** The financial year a `YYYY-MM-DD` date falls in. */
export function financialYearOf(date: string): string {
  const year = Number(date.slice(0, 4));
  const start = Number(date.slice(5, 7)) >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/** `2025-26` → 1 April 2025 … 31 March 2026 as dates. */
export function financialYearDates(label: string): { from: string; to: string } {
  const start = Number(label.slice(0, 4));
  return { from: `${start}-04-01`, to: `${start + 1}-03-31` };
}

/**
 * The years a loan's certificate can be asked for, newest first: from the year it started to
 * the year of today (or of its last payment, when that came first).
 */
export function financialYearsOf(startDate: string, lastDate: string, today: string): string[] {
  const first = Number(financialYearOf(startDate).slice(0, 4));
  const last = Number(financialYearOf(lastDate < today ? lastDate : today).slice(0, 4));
  const years: string[] = [];
  for (let y = Math.max(first, last); y >= first; y--) years.push(financialYearOf(`${y}-04-01`));
  return years;
}

/** The year a tax return is filed for: the last one ended, if the loan ran then; else the newest. */
export function defaultFinancialYear(years: readonly string[], today: string): string | undefined {
  const current = Number(financialYearOf(today).slice(0, 4));
  const previous = financialYearOf(`${current - 1}-04-01`);
  return years.includes(previous) ? previous : years[0];
}
