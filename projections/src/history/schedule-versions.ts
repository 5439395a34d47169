import {
  type LoanChange,
  type LoanStreamEvent,
  type Paise,
  type ScheduleVersionEvent,
  scheduleWhy,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { evolveSchedule, type ScheduleView, type ScheduleViewRow } from '../schedules/projector';

/** One schedule the loan has had (generated, or revised by a part-payment, reset, override…). */
export type ScheduleVersion = {
  version: number;
  reason: string;
  /** Why it was made, in the screens' words ("Part-payment of ₹5,00,000.00, tenure reduced"). */
  why: string;
  generatedAt: string;
  /** The EMI before GST in force after the version's change (the first EMI's when none; 0 once nothing is due). */
  emi: Paise;
  totals: ScheduleView['totals'];
};

export type ScheduleVersionWithRows = ScheduleVersion & { rows: readonly ScheduleViewRow[] };

const SCHEDULE_EVENTS = "('ScheduleGenerated', 'ScheduleRevised')";

/**
 * The EMI before GST (principal + interest) the borrower pays after `from` (YYYY-MM-DD): the first
 * EMI dated after it, or the first EMI when `from` is null; 0 when none is left.
 */
export function emiInForce(rows: readonly ScheduleViewRow[], from: string | null): Paise {
  const row = rows.find((r) => r.kind === 'emi' && (from === null || r.emiDate > from));
  return row ? row.principal + row.interest : 0;
}

/**
 * The date after which a version's EMI is read: its latest change's (changes are in date order),
 * so a revision's EMI is the one the borrower pays after it, not the first, which a change never
 * alters.
 */
const changedFrom = (event: ScheduleVersionEvent): string | null => event.changes?.at(-1)?.date ?? null;

/**
 * A schedule event as the schedules read model folds it (the same rule, not a copy), with why it
 * was made: `before`, the changes of the version before it.
 */
export function scheduleVersionOf(
  type: string,
  data: ScheduleVersionEvent,
  before: readonly LoanChange[],
): ScheduleVersionWithRows | null {
  const view = evolveSchedule(null, { type, data } as unknown as LoanStreamEvent);
  if (!view) return null;
  return {
    version: view.version,
    reason: view.reason,
    why: scheduleWhy(data, before),
    generatedAt: view.generatedAt,
    emi: emiInForce(view.rows, changedFrom(data)),
    totals: view.totals,
    rows: view.rows,
  };
}

/** Every schedule the user's loan has had, oldest first (none: an empty list). */
export async function scheduleVersions(
  db: Queryable,
  userId: string,
  streamId: string,
): Promise<ScheduleVersion[]> {
  const found = await scheduleEvents(db, userId, streamId, null);
  return [...found.values()].map(({ rows: _rows, ...version }) => version);
}

/** Two versions with their rows (absent ones left out). */
export async function scheduleVersionsWithRows(
  db: Queryable,
  userId: string,
  streamId: string,
  versions: readonly number[],
): Promise<Map<number, ScheduleVersionWithRows>> {
  return scheduleEvents(db, userId, streamId, versions);
}

/** The versions asked for (all when null); each one's "why" reads the changes of the version before. */
async function scheduleEvents(
  db: Queryable,
  userId: string,
  streamId: string,
  versions: readonly number[] | null,
): Promise<Map<number, ScheduleVersionWithRows>> {
  const { rows } = await db.query<{ type: string; data: ScheduleVersionEvent & { version: number } }>(
    `SELECT type, data FROM history_events
      WHERE user_id = $1 AND stream_id = $2 AND type IN ${SCHEDULE_EVENTS}
        AND ($3::int[] IS NULL OR (data->>'version')::int = ANY($3::int[]))
      ORDER BY position`,
    [userId, streamId, versions === null ? null : versions.flatMap((v) => [v, v - 1])],
  );
  return versionsOfEvents(rows, versions);
}

/**
 * The versions (all when `versions` is null) among a loan's schedule events in log order, each
 * "why" read against the changes of the version before. Pure.
 */
export function versionsOfEvents(
  events: readonly { type: string; data: ScheduleVersionEvent & { version: number } }[],
  versions: readonly number[] | null,
): Map<number, ScheduleVersionWithRows> {
  const changesOf = new Map(events.map((event) => [event.data.version, event.data.changes ?? []]));
  const found = new Map<number, ScheduleVersionWithRows>();
  for (const event of events) {
    if (versions && !versions.includes(event.data.version)) continue;
    const version = scheduleVersionOf(event.type, event.data, changesOf.get(event.data.version - 1) ?? []);
    if (version) found.set(version.version, version);
  }
  return found;
}

export type FigureChange = { from: Paise; to: Paise; difference: Paise };

export type ScheduleDiff = {
  emi: FigureChange;
  /** Number of payments. */
  tenure: FigureChange;
  totalInterest: FigureChange;
  totalGst: FigureChange;
  /** Everything paid over the schedule: principal, interest and GST. */
  totalOutflow: FigureChange;
  /** Instalments whose date or amounts differ, or that only one version has, by payment number. */
  rows: { paymentNumber: number; index: number; from: ScheduleViewRow | null; to: ScheduleViewRow | null }[];
};

const change = (from: number, to: number): FigureChange => ({ from, to, difference: to - from });

const sameRow = (a: ScheduleViewRow, b: ScheduleViewRow) =>
  a.kind === b.kind &&
  a.charge === b.charge &&
  a.emiDate === b.emiDate &&
  a.principal === b.principal &&
  a.interest === b.interest &&
  a.gst === b.gst &&
  a.emi === b.emi &&
  a.remainingPrincipal === b.remainingPrincipal;

/** What changed from one schedule version to another. Pure; integer paise throughout. */
export function diffSchedules(from: ScheduleVersionWithRows, to: ScheduleVersionWithRows): ScheduleDiff {
  const rows: ScheduleDiff['rows'] = [];
  const count = Math.max(from.rows.length, to.rows.length);
  for (let i = 0; i < count; i++) {
    const a = from.rows[i] ?? null;
    const b = to.rows[i] ?? null;
    if (a && b && sameRow(a, b)) continue;
    rows.push({ paymentNumber: (a ?? b)?.paymentNumber ?? i + 1, index: i, from: a, to: b });
  }
  return {
    emi: change(from.emi, to.emi),
    tenure: change(from.totals.numberOfPayments, to.totals.numberOfPayments),
    totalInterest: change(from.totals.interest, to.totals.interest),
    totalGst: change(from.totals.gst, to.totals.gst),
    totalOutflow: change(from.totals.emi, to.totals.emi),
    rows,
  };
}
