import { calendarDateOf, type FieldError, ValidationError } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { type AsOfReadModel, type AsOfScope, readAsOf } from '@kosh/projections';
import type { Platform } from '../platform';

export const AS_OF_MESSAGES = {
  format:
    'As of must be a date (YYYY-MM-DD) or a date and time (YYYY-MM-DDTHH:MM[:SS], India time unless a zone is given)',
  future: 'As of cannot be in the future',
} as const;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;
const INDIA = '+05:30';

/** A real calendar date (no 31 February). */
function validDate(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return (
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(m) - 1 &&
    date.getUTCDate() === Number(d)
  );
}

/**
 * An ISO date (the start or, with `endOfDay`, the end of that day in India) or date-time (India
 * time when no zone) → its instant; 'invalid' when it is neither.
 */
export function parseInstant(text: string, endOfDay: boolean): Date | 'invalid' {
  const date = DATE.exec(text);
  if (date) {
    const [, y, m, d] = date as unknown as [string, string, string, string];
    if (!validDate(y, m, d)) return 'invalid';
    return new Date(`${text}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}${INDIA}`);
  }
  const dateTime = DATE_TIME.exec(text);
  if (!dateTime) return 'invalid';
  const [, y, m, d, hh, mm, ss = '00', fraction = '', zone = INDIA] = dateTime as unknown as string[];
  if (
    !validDate(y as string, m as string, d as string) ||
    Number(hh) > 23 ||
    Number(mm) > 59 ||
    Number(ss) > 59
  ) {
    return 'invalid';
  }
  const instant = new Date(`${y}-${m}-${d}T${hh}:${mm}:${ss}${fraction}${zone}`);
  return Number.isNaN(instant.getTime()) ? 'invalid' : instant;
}

/**
 * `as_of` → the instant to answer at (null: absent, answer live). A date means the end of that
 * day in India (today: now). Bad text or a future instant is a 422.
 */
export function parseAsOf(value: string | undefined, now: Date): Date | null {
  const text = value?.trim();
  if (!text) return null;
  const fail = (message: string): never => {
    const errors: FieldError[] = [{ field: 'as_of', message }];
    throw new ValidationError(errors);
  };
  const instant = parseInstant(text, true);
  if (instant === 'invalid') return fail(AS_OF_MESSAGES.format);
  if (DATE.test(text)) {
    if (text > calendarDateOf(now)) fail(AS_OF_MESSAGES.future);
    return instant > now ? now : instant;
  }
  if (instant > now) fail(AS_OF_MESSAGES.future);
  return instant;
}

/**
 * True when the request reads the present: no `as_of`, and no auditor's as-of limit (a capped
 * read is a replay even without `as_of`). Only such answers may come from a cache of live
 * answers. Malformed `as_of` text is not live: `readAt` answers its 422.
 */
export function readsLive(request: { query: unknown; audit?: { asOfLimit: Date | null } | null }): boolean {
  if (request.audit?.asOfLimit) return false;
  return !(request.query as { as_of?: string } | undefined)?.as_of?.trim();
}

/** The earlier of the asked instant (null: now) and an auditor's as-of limit; null: live. */
export function capped(asOf: Date | null, request: { audit?: { asOfLimit: Date | null } | null }, now: Date) {
  const limit = request.audit?.asOfLimit ?? null;
  if (limit === null || limit >= (asOf ?? now)) return asOf;
  return limit;
}

/** Where a read route reads: the live read models now, or their replay as of an instant. */
export type ReadSource = Readonly<{ db: Queryable; now: Date; asOf: Date | null }>;

/**
 * Runs a read body's reads: at once live (the pool takes each on its own connection), one after
 * another in a replay, which reads on its transaction's one client (pg queues a statement sent
 * while another runs there, and pg@9 refuses it).
 */
export async function readEach<T extends readonly unknown[]>(
  source: Pick<ReadSource, 'asOf'>,
  reads: { readonly [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  if (!source.asOf) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}

/**
 * Runs a read route's body live, or (with `as_of`) on the caller's read models as they stood
 * then, with "now" set to that instant, so the same body answers what it would have answered.
 * `models`: the read models the body reads; the others are empty in an as-of answer.
 */
export async function readAt<T>(
  platform: Platform,
  /** `audit.asOfLimit`: an auditor's grant caps the instant (plugins/audit-access.ts). */
  request: { userId: string; query: unknown; audit?: { asOfLimit: Date | null } | null },
  /** The read models `body` reads (only these are replayed). */
  models: readonly AsOfReadModel[],
  body: (source: ReadSource) => Promise<T>,
  /** Narrows the replay to what `body` reads at that instant (as-of.ts, `AsOfScope`). */
  scopeAt?: (asOf: Date) => AsOfScope,
): Promise<T> {
  const now = platform.clock();
  const asOf = capped(parseAsOf((request.query as { as_of?: string } | undefined)?.as_of, now), request, now);
  if (!asOf) return body({ db: platform.db, now, asOf: null });
  // The replay reads the history read model, which commands do not wait for.
  await platform.readModelsCurrent(['history']);
  return readAsOf(
    platform.db,
    request.userId,
    asOf.toISOString(),
    models,
    (db) => body({ db, now: asOf, asOf }),
    scopeAt?.(asOf),
  );
}
