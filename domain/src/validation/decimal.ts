/**
 * A number as the API takes it: a JSON number, or a string of plain decimal digits ("12.5",
 * " -3 ", ".5"). Anything JavaScript's `Number()` would also read is refused: hex ("0x10" is not
 * 16 %), exponents ("1e1" is not 10 %), "Infinity", signs on both ends, separators, empty text.
 * Answers the value's decimal text (a JSON number written without exponent), or null.
 */
export function decimalText(value: unknown): string | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return /e/i.test(String(value)) ? value.toFixed(20).replace(/\.?0+$/, '') : String(value);
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return /^-?(\d+\.?\d*|\.\d+)$/.test(text) ? text : null;
}
