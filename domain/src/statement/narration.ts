import { NOTES_MAX_LENGTH } from '../validation/transaction';

/** How the money moved, as a narration names it. */
export type NarrationChannel =
  | 'UPI'
  | 'NEFT'
  | 'RTGS'
  | 'IMPS'
  | 'ACH'
  | 'NACH'
  | 'ECS'
  | 'SI'
  | 'POS'
  | 'ATM'
  | 'Interest'
  | 'Charges';

export type ParsedNarration = {
  channel: NarrationChannel | null;
  counterparty: string | null;
  reference: string | null;
  /** Readable notes, "UPI · Swiggy · 527411112222", at most 255 characters. */
  notes: string;
  /** The narration as the bank wrote it. */
  raw: string;
};

const VPA = /^[\w.+-]+@[a-z][\w.]*$/i;
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
const UTR12 = /^\d{12}$/;
/** A bank reference: digits, or letters then 6+ digits (NEFT UTRs such as HDFCN52024040112345678). */
const REFERENCE = /^([A-Z]{0,6}\d{6,}[A-Z0-9]*|\d{6,})$/;
const CARD = /^\d{4,6}[X*]{2,}\d{4}$/i;
const NOISE =
  /^(DR|CR|D|C|TO|BY|TRANSFER|UPI|NEFT|RTGS|IMPS|MMT|ACH|NACH|ECS|POS|ATW|ATM|NWD|WDL|SI|P2A|P2M)$/i;

function tokens(text: string, separators: RegExp): string[] {
  return text
    .split(separators)
    .map((token) => token.trim())
    .filter((token) => token !== '');
}

/** The first token that reads as a name: letters, not a channel word, VPA, IFSC or reference. */
function firstName(parts: string[]): string | null {
  return (
    parts.find(
      (part) =>
        /[a-z]{2}/i.test(part) &&
        !NOISE.test(part) &&
        !VPA.test(part) &&
        !IFSC.test(part) &&
        !REFERENCE.test(part) &&
        !CARD.test(part),
    ) ?? null
  );
}

/** "SWIGGY LTD" -> "Swiggy Ltd"; mixed-case names are kept as written. */
function tidy(name: string | null): string | null {
  if (name === null) return null;
  const collapsed = name.replace(/\s+/g, ' ').trim();
  if (collapsed === '') return null;
  if (collapsed !== collapsed.toUpperCase() && collapsed !== collapsed.toLowerCase()) return collapsed;
  return collapsed
    .toLowerCase()
    .replace(/(^|[\s.&(-])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());
}

function upi(text: string): Pick<ParsedNarration, 'counterparty' | 'reference'> {
  const slash = /UPI\/(?:(?:DR|CR)\/)?(.*)$/i.exec(text);
  if (slash && text.includes('/')) {
    const parts = tokens(slash[1]!, /\//);
    const reference =
      parts.find((part) => UTR12.test(part)) ?? parts.find((part) => REFERENCE.test(part)) ?? null;
    const afterReference = reference ? parts.slice(parts.indexOf(reference) + 1) : parts;
    const sbiStyle = /UPI\/(DR|CR)\//i.test(text);
    if (sbiStyle) return { reference, counterparty: tidy(firstName(afterReference)) };
    const vpa = afterReference.find((part) => VPA.test(part));
    const handle = vpa?.split('@')[0] ?? '';
    const counterparty = /[a-z]{2}/i.test(handle) && !/^\d/.test(handle) ? handle : firstName(afterReference);
    return { reference, counterparty: tidy(counterparty) };
  }
  const parts = tokens(text.replace(/^.*?UPI/i, ''), /-/);
  return {
    reference: parts.find((part) => UTR12.test(part)) ?? parts.find((part) => REFERENCE.test(part)) ?? null,
    counterparty: tidy(firstName(parts)),
  };
}

function transfer(
  text: string,
  channel: 'NEFT' | 'RTGS' | 'IMPS',
): Pick<ParsedNarration, 'counterparty' | 'reference'> {
  const mmt = /MMT\/IMPS\/([^/]+)\/([^/]*)\/([^/]+)/i.exec(text);
  if (mmt) return { reference: mmt[1]!.trim(), counterparty: tidy(mmt[3]!) };
  const rest = text.slice(text.toUpperCase().indexOf(channel) + channel.length).replace(/^\s*(CR|DR)\b/i, '');
  const parts = tokens(rest, /[-/:]/);
  const reference =
    parts.find((part) => REFERENCE.test(part) && !IFSC.test(part) && !CARD.test(part)) ??
    parts.find((part) => UTR12.test(part)) ??
    null;
  return { reference, counterparty: tidy(firstName(parts)) };
}

function autoDebit(
  text: string,
  channel: 'ACH' | 'NACH' | 'ECS' | 'SI',
): Pick<ParsedNarration, 'counterparty' | 'reference'> {
  const rest = text.replace(/^.*?\b(NACH|ACH|ECS|SI)\b\s*(-\s*)?((DR|CR|D|C)\b)?\s*-?/i, '');
  if (channel === 'SI' || channel === 'ECS' || !/[-/]/.test(rest)) {
    const words = tokens(rest, /\s+/);
    const reference = words.find((word) => REFERENCE.test(word)) ?? null;
    return { reference, counterparty: tidy(words.filter((word) => word !== reference).join(' ') || null) };
  }
  const parts = tokens(rest, /[-/]/);
  const reference = parts.find((part) => REFERENCE.test(part.replace(/\s/g, ''))) ?? null;
  return { reference, counterparty: tidy(firstName(parts.filter((part) => part !== reference))) };
}

function card(text: string, channel: 'POS' | 'ATM'): Pick<ParsedNarration, 'counterparty' | 'reference'> {
  const parts = tokens(text, channel === 'POS' ? /\s+/ : /[-/\s]+/);
  const reference = parts.find((part) => CARD.test(part) || /^\d{6,}$/.test(part)) ?? null;
  const words = parts.filter((part) => part !== reference && !NOISE.test(part) && !/^\d+$/.test(part));
  if (channel === 'ATM') {
    const place = words.filter((word) => /^[a-z]+$/i.test(word)).at(-1) ?? null;
    return { reference, counterparty: tidy(place) };
  }
  return { reference, counterparty: tidy(words.join(' ') || null) };
}

const RULES: { channel: NarrationChannel; test: RegExp }[] = [
  { channel: 'UPI', test: /\bUPI\b/i },
  { channel: 'NEFT', test: /\bNEFT\b/i },
  { channel: 'RTGS', test: /\bRTGS\b/i },
  { channel: 'IMPS', test: /\bIMPS\b/i },
  { channel: 'NACH', test: /\bNACH\b/i },
  { channel: 'ACH', test: /\bACH\b/i },
  { channel: 'ECS', test: /^\s*ECS\b/i },
  { channel: 'SI', test: /^\s*SI\b/i },
  { channel: 'POS', test: /^\s*POS\b/i },
  { channel: 'ATM', test: /^\s*(ATW|NWD|EAW)\b|\bATM\b/i },
  { channel: 'Interest', test: /^\s*Int\.?\s*Pd\b|\binterest\b/i },
  { channel: 'Charges', test: /\bcharges?\b|^\s*GST\b|\bchrg\b/i },
];

/**
 * Reads channel, counterparty and reference out of an Indian bank narration (the shapes of
 * spec/statement-formats.md), tolerantly: a part that cannot be found is null, and `raw` keeps
 * the text as written. `notes` joins what was found with " · ", or is the raw text when nothing
 * was, cut to 255 characters.
 */
export function parseNarration(raw: string): ParsedNarration {
  const text = raw.replace(/\s*\n\s*/g, ' ').trim();
  const rule = RULES.find((candidate) => candidate.test.test(text));
  let found: Pick<ParsedNarration, 'counterparty' | 'reference'> = { counterparty: null, reference: null };
  const channel = rule?.channel ?? null;
  if (channel === 'UPI') found = upi(text);
  else if (channel === 'NEFT' || channel === 'RTGS' || channel === 'IMPS') found = transfer(text, channel);
  else if (channel === 'ACH' || channel === 'NACH' || channel === 'ECS' || channel === 'SI') {
    found = autoDebit(text, channel);
  } else if (channel === 'POS' || channel === 'ATM') found = card(text, channel);
  else if (channel === 'Interest') {
    found = { counterparty: null, reference: /Int\.?\s*Pd\s*:\s*([A-Z0-9]+)/i.exec(text)?.[1] ?? null };
  }
  const parts = [channel, found.counterparty, found.reference].filter((part) => part !== null);
  const notes =
    channel === 'Charges' || channel === 'Interest'
      ? `${channel} · ${text}`
      : parts.length <= 1
        ? text
        : parts.join(' · ');
  return { channel, ...found, notes: cut(notes), raw };
}

/** Cut by characters (code points), as the notes rule counts them. */
function cut(text: string): string {
  const characters = [...text];
  return characters.length <= NOTES_MAX_LENGTH
    ? text
    : `${characters.slice(0, NOTES_MAX_LENGTH - 1).join('')}…`;
}
