import type { Queryable } from '@kosh/event-store';
import { categoriesAndSpending } from '@kosh/projections';

export async function explainSpending(db: Queryable, userId: string, from: string, to: string) {
  const seen: { text: string; values: unknown[] }[] = [];
  const spy: Queryable = {
    query: (async (text: string, values: unknown[]) => {
      seen.push({ text, values });
      return db.query(text, values);
    }) as Queryable['query'],
  } as Queryable;
  await categoriesAndSpending(spy, userId, from, to);
  for (let round = 0; round < 3; round++)
    for (const q of seen) {
      const r = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${q.text}`,
        q.values as never[],
      );
      if (round === 2) console.log(`\n${q.text}\n${r.rows.map((x) => x['QUERY PLAN']).join('\n')}`);
    }
}
