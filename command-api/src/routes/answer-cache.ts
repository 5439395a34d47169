import { createHash } from 'node:crypto';
import type { Queryable } from '@kosh/event-store/db';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serialised answers of the large reads (a ledger month, a loan's schedule), kept in this
 * process and tagged with the checkpoints of the projections they read. A read model's tables
 * change only in the transaction that moves its checkpoint (a batch, or a rebuild's swap, which
 * also stamps `updated_at`), so an unchanged checkpoint means an unchanged answer: the request
 * then costs one indexed lookup of the checkpoint, and `If-None-Match` with the ETag gets a 304.
 * Any process may serve any request: a process with an older entry sees the checkpoint moved.
 */
export type AnswerCache = {
  /**
   * Answers `build()` (serialised with the route's response schema) or the cached copy of it for
   * `key` at the projections' current checkpoints, with a strong ETag; 304 on a matching
   * `If-None-Match`. `key` names everything else the answer depends on (user, month, loan, …).
   */
  answer(
    request: FastifyRequest,
    reply: FastifyReply,
    options: { key: string; projections: readonly string[]; build: () => Promise<unknown> },
  ): Promise<FastifyReply>;
};

type Entry = { etag: string; body: string };

/** The checkpoints' positions and when each last moved, in one indexed statement. */
async function checkpointsTag(db: Queryable, names: readonly string[]): Promise<string> {
  const { rows } = await db.query<{ tag: string | null }>(
    `SELECT string_agg(name || '@' || position || '@' || (extract(epoch FROM updated_at) * 1000000)::bigint,
                       ',' ORDER BY name) AS tag
       FROM projection_checkpoints WHERE name = ANY($1)`,
    [names],
  );
  return rows[0]?.tag ?? '';
}

/** `If-None-Match` holds `etag` (a list, or `*`); weak forms compare by their opaque part. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

export function createAnswerCache(db: Queryable, maxBytes = 32 * 1024 * 1024): AnswerCache {
  // Map order is recency order: a hit moves the entry to the end, eviction takes the front.
  const entries = new Map<string, Entry>();
  let bytes = 0;

  function remember(key: string, entry: Entry): void {
    const old = entries.get(key);
    if (old) {
      entries.delete(key);
      bytes -= old.body.length;
    }
    if (entry.body.length > maxBytes) return;
    entries.set(key, entry);
    bytes += entry.body.length;
    for (const [oldest, value] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(oldest);
      bytes -= value.body.length;
    }
  }

  return {
    async answer(request, reply, { key, projections, build }) {
      // The tag is read before the rows: an answer built from newer rows than its tag says is
      // replaced once the tag moves; one built from older rows than its tag could stay forever.
      const tag = await checkpointsTag(db, projections);
      const etag = `"${createHash('sha256').update(`${key}\n${tag}`).digest('base64url').slice(0, 27)}"`;
      reply.header('ETag', etag);
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      const cached = entries.get(key);
      let body: string;
      if (cached?.etag === etag) {
        entries.delete(key);
        entries.set(key, cached);
        body = cached.body;
      } else {
        body = String(reply.serialize(await build()));
        remember(key, { etag, body });
      }
      return reply.type('application/json; charset=utf-8').send(body);
    },
  };
}
