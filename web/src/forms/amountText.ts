/** en-IN digit grouping: the last three digits, then pairs ("5,000", "1,00,000", "12,34,567.50"). */
const EN_IN_GROUPED = /^\d{1,2}(,\d{2})*,\d{3}(\.\d*)?$/;
/** Spaces as typed or pasted: ordinary, no-break and the narrow no-break space of formatted amounts. */
const SPACES = /[\s\u00a0\u202f]/g;

/**
 * A number as typed or pasted, in the plain decimal text the validators and the API read: the
 * rupee sign, spaces and en-IN grouping commas go ("₹ 1,00,000.50" is "100000.50"), so an amount
 * copied from a bank statement or from Kosh itself means what it says. Anything else (letters,
 * grouping that is not en-IN such as "1,000,000") stays as typed, for the form's own message.
 * A cleared field (final-form drops its value) is "".
 */
export function amountText(typed: string | number | undefined | null): string {
  if (typeof typed === 'number') return String(typed);
  const bare = (typed ?? '').replace(SPACES, '').replace(/^₹/, '');
  return EN_IN_GROUPED.test(bare) ? bare.replace(/,/g, '') : bare;
}
