import { type FieldSpec, type FieldTable, fieldKeys } from '@kosh/domain';
import { allProjections } from '@kosh/projections';
import { expect } from 'vitest';
import type { Answer, Client } from './client';
import type { TestClock } from './clock';
import type { TestApp } from './test-app';

/**
 * The round trip of a record's declared fields (`fieldTable`): what to send for each field on
 * create and on edit, and what the API must answer for it. Samples come from the field's kind
 * (a new optional field is covered without a line here); `overrides` gives a field's own pair
 * when its rules (or another field's) need particular values. Every field's two values differ,
 * so an edit changes every field.
 */
export type Sample = readonly [create: unknown, edit: unknown];

function sampleOf(spec: FieldSpec): Sample {
  switch (spec.kind) {
    case 'money':
      return [1234.5, 2345.75];
    case 'number':
      return [1.5, 2.25];
    case 'int':
      return [3, 4];
    case 'id':
      return [1, 2];
    case 'flag':
      return [1, 0];
    case 'date':
      return ['2024-01-31', '2024-02-29'];
    case 'code':
      return [spec.values?.[0], spec.values?.[1]];
    case 'ref':
      // Another record of the user's: only the record's own test can make one.
      throw new Error(`${spec.wire} refers to another record: give its sample in the overrides`);
    default:
      return ['RoundTrip1', 'RoundTrip2'];
  }
}

/** The create and edit bodies (wire names) of every declared field. */
export function roundTripBodies<T extends FieldTable>(
  table: T,
  overrides: Partial<Record<keyof T, Sample>> = {},
): { create: Record<string, unknown>; edit: Record<string, unknown> } {
  const create: Record<string, unknown> = {};
  const edit: Record<string, unknown> = {};
  for (const key of fieldKeys(table)) {
    const spec = table[key]!;
    const [c, e] = overrides[key] ?? sampleOf(spec);
    create[spec.wire] = c;
    edit[spec.wire] = e;
  }
  return { create, edit };
}

/** What the API answers for a field sent as `sent`: flags as booleans, numbers as numbers. */
export function answered(spec: FieldSpec, sent: unknown): unknown {
  if (sent === null || sent === undefined || (typeof sent === 'string' && sent.trim() === ''))
    return spec.kind === 'flag' ? false : null;
  switch (spec.kind) {
    case 'flag':
      return sent === true || sent === 1 || sent === '1' || sent === 'true';
    case 'money':
    case 'number':
    case 'int':
    case 'id':
      return Number(sent);
    case 'text':
      return String(sent).trim();
    default:
      return sent;
  }
}

/** Each declared field's wire name with what the answer must hold for `body`. */
export function expectedWire(table: FieldTable, body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    fieldKeys(table).map((key) => {
      const spec = table[key]!;
      return [spec.wire, answered(spec, body[spec.wire])];
    }),
  );
}

/** Each declared field's wire name with its value in `answer`. */
export function wireFields(table: FieldTable, answer: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    fieldKeys(table).map((key) => {
      const wire = table[key]!.wire;
      return [wire, answer[wire]];
    }),
  );
}

/** Every label of the table. */
export const labelsOf = (table: FieldTable): string[] => fieldKeys(table).map((key) => table[key]!.label);

/** Rebuilds every read model from the log, one after another (as `npm run rebuild` does). */
export async function rebuildEverything(t: TestApp): Promise<void> {
  for (const projection of allProjections) await t.platform.runner.rebuild(projection.name);
}

type Entry = { type: string; changes: { field: string }[] };

/** Where a record lives on the API, for `checkRoundTrip`. */
export type RoundTripRoutes = Readonly<{
  /** Creates the record (POST, 201) and answers its id; null when the record exists already. */
  create: ((api: Client, body: Record<string, unknown>) => Promise<string>) | null;
  /** Edits it (PUT, 200). */
  edit: (api: Client, id: string, body: Record<string, unknown>) => Promise<Answer>;
  /** The record as the API answers it now, or as of an instant (replayed from the log). */
  read: (api: Client, id: string, asOf?: string) => Promise<Record<string, unknown>>;
  /** Its History entries. */
  history: (api: Client, id: string) => Promise<Answer>;
  /** The event types that record its creation and its edit. */
  created: string;
  edited: string;
  /**
   * The labels History lists for the creation, when a field may not be set on create (default:
   * every label): an account has a catalog bank or a typed bank name, never both.
   */
  createdLabels?: readonly string[];
}>;

/**
 * Issue 29 item 2: every field of `table` goes in through the API, comes out of GET, survives an
 * edit (and the same edit again records nothing), a rebuild of every read model and an as-of
 * replay, and shows in History with its label.
 */
export async function checkRoundTrip<T extends FieldTable>(
  t: TestApp,
  clock: TestClock,
  api: Client,
  table: T,
  bodies: { create: Record<string, unknown>; edit: Record<string, unknown> },
  routes: RoundTripRoutes,
): Promise<void> {
  const { create, edit } = bodies;
  const id = routes.create ? await routes.create(api, create) : '';
  const fields = async (asOf?: string) => wireFields(table, await routes.read(api, id, asOf));
  if (routes.create) expect(await fields()).toEqual(expectedWire(table, create));
  const beforeEdit = clock.advance(60_000).toISOString();
  clock.advance(60_000);
  const edited = await routes.edit(api, id, edit);
  expect(edited.status).toBe(200);
  expect(await fields()).toEqual(expectedWire(table, edit));
  // The same values again change nothing.
  clock.advance(60_000);
  expect((await routes.edit(api, id, edit)).status).toBe(200);

  const labels = labelsOf(table);
  const inHistory = async () => {
    expect(await t.caughtUp(['history'])).toBe(true);
    const entries = (await routes.history(api, id)).body.data.entries as Entry[];
    const labelsOfType = (type: string) =>
      entries.filter((e) => e.type === type).map((e) => e.changes.map((c) => c.field));
    if (routes.create) expect(labelsOfType(routes.created)).toEqual([routes.createdLabels ?? labels]);
    expect(labelsOfType(routes.edited)).toEqual([labels]);
  };
  await inHistory();
  await rebuildEverything(t);
  expect(await fields()).toEqual(expectedWire(table, edit));
  await inHistory();
  if (routes.create) expect(await fields(beforeEdit)).toEqual(expectedWire(table, create));
  expect(await fields(clock().toISOString())).toEqual(expectedWire(table, edit));
}
