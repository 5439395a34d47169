import type { Paise, ScheduleRow, ScheduleTotals } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store/db';

/** One generated schedule of a loan, as its `ScheduleGenerated` event recorded it. */
export type ScheduleVersion = {
  version: number;
  reason: string;
  generatedAt: string;
  /** The first instalment's EMI (0 for an empty schedule). */
  emi: Paise;
  totals: ScheduleTotals;
};

export type ScheduleVersionWithRows = ScheduleVersion & { rows: readonly ScheduleRow[] };

type Db = {
  data: { version: number; reason: string; generatedAt: string; totals: ScheduleTotals };
  emi: Paise | null;
};

/** Every schedule the user's loan has had, oldest first (none: an empty list). */
export async function scheduleVersions(
  db: Queryable,
  userId: string,
  streamId: string,
): Promise<ScheduleVersion[]> {
  const { rows } = await db.query<Db>(
    `SELECT data - 'rows' - 'terms' AS data, (data->'rows'->0->>'emi')::bigint AS emi FROM history_events
      WHERE user_id = $1 AND stream_id = $2 AND type = 'ScheduleGenerated' ORDER BY position`,
    [userId, streamId],
  );
  return rows.map((r) => ({
    version: r.data.version,
    reason: r.data.reason,
    generatedAt: r.data.generatedAt,
    emi: Number(r.emi ?? 0),
    totals: r.data.totals,
  }));
}

/** Two versions with their rows (absent ones left out). */
export async function scheduleVersionsWithRows(
  db: Queryable,
  userId: string,
  streamId: string,
  versions: readonly number[],
): Promise<Map<number, ScheduleVersionWithRows>> {
  const { rows } = await db.query<{
    data: {
      version: number;
      reason: string;
      generatedAt: string;
      totals: ScheduleTotals;
      rows: ScheduleRow[];
    };
  }>(
    `SELECT data FROM history_events
      WHERE user_id = $1 AND stream_id = $2 AND type = 'ScheduleGenerated'
        AND (data->>'version')::int = ANY($3::int[])`,
    [userId, streamId, versions],
  );
  return new Map(
    rows.map(({ data: d }) => [
      d.version,
      {
        version: d.version,
        reason: d.reason,
        generatedAt: d.generatedAt,
        emi: d.rows[0]?.emi ?? 0,
        totals: d.totals,
        rows: d.rows,
      },
    ]),
  );
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
  rows: { paymentNumber: number; from: ScheduleRow | null; to: ScheduleRow | null }[];
};

const change = (from: number, to: number): FigureChange => ({ from, to, difference: to - from });

const sameRow = (a: ScheduleRow, b: ScheduleRow) =>
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
    rows.push({ paymentNumber: (a ?? b)?.paymentNumber ?? i + 1, from: a, to: b });
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
