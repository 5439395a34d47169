import type { LoanStreamEvent, Paise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { evolveSchedule, type ScheduleView, type ScheduleViewRow } from '../schedules/projector';

/** One schedule the loan has had (generated, or revised by a part-payment, reset, override…). */
export type ScheduleVersion = {
  version: number;
  reason: string;
  generatedAt: string;
  /** The first EMI's outflow (0 for an empty schedule). */
  emi: Paise;
  totals: ScheduleView['totals'];
};

export type ScheduleVersionWithRows = ScheduleVersion & { rows: readonly ScheduleViewRow[] };

const SCHEDULE_EVENTS = "('ScheduleGenerated', 'ScheduleRevised')";

/** A schedule event as the schedules read model folds it: the same rule, not a copy. */
function versionOf(type: string, data: unknown): ScheduleVersionWithRows | null {
  const view = evolveSchedule(null, { type, data } as LoanStreamEvent);
  if (!view) return null;
  return {
    version: view.version,
    reason: view.reason,
    generatedAt: view.generatedAt,
    emi: view.rows.find((row) => row.kind === 'emi')?.emi ?? 0,
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

async function scheduleEvents(
  db: Queryable,
  userId: string,
  streamId: string,
  versions: readonly number[] | null,
): Promise<Map<number, ScheduleVersionWithRows>> {
  const { rows } = await db.query<{ type: string; data: unknown }>(
    `SELECT type, data FROM history_events
      WHERE user_id = $1 AND stream_id = $2 AND type IN ${SCHEDULE_EVENTS}
        AND ($3::int[] IS NULL OR (data->>'version')::int = ANY($3::int[]))
      ORDER BY position`,
    [userId, streamId, versions],
  );
  const found = new Map<number, ScheduleVersionWithRows>();
  for (const row of rows) {
    const version = versionOf(row.type, row.data);
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
