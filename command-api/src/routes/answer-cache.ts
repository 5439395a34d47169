import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Queryable } from '@kosh/event-store';
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

const gzipAsync = promisify(gzip);

type Entry = { etag: string; body: string; gzipped?: Buffer };

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

/**
 * Reads of one tag shared by concurrent requests, never older than the request: a request joins
 * a read that starts after it arrived (the next one, queued behind the read in flight), so it
 * still sees every write that finished before it came (read-your-writes), from any process.
 */
function coalesced(read: () => Promise<string>): () => Promise<string> {
  let next: Promise<string> | null = null;
  let inFlight: Promise<unknown> = Promise.resolve();
  return () => {
    if (!next) {
      const started = inFlight.then(
        () => {
          next = null;
          return read();
        },
        () => {
          next = null;
          return read();
        },
      );
      next = started;
      inFlight = started.catch(() => {});
    }
    return next;
  };
}

/** `If-None-Match` holds `etag` (a list, or `*`); weak comparison, as for GET. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === opaque;
  });
}

/** `Accept-Encoding` names gzip (or `*`) without refusing it (`;q=0`). */
function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    return !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}

export function createAnswerCache(db: Queryable, maxBytes = 32 * 1024 * 1024): AnswerCache {
  // Map order is recency order: a hit moves the entry to the end, eviction takes the front.
  const entries = new Map<string, Entry>();
  const tags = new Map<string, () => Promise<string>>();
  let bytes = 0;
  const size = (entry: Entry) => entry.body.length + (entry.gzipped?.length ?? 0);

  function remember(key: string, entry: Entry): void {
    const old = entries.get(key);
    if (old) {
      entries.delete(key);
      bytes -= size(old);
    }
    if (size(entry) > maxBytes) return;
    entries.set(key, entry);
    bytes += size(entry);
    for (const [oldest, value] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(oldest);
      bytes -= size(value);
    }
  }

  function tagOf(projections: readonly string[]): Promise<string> {
    const name = projections.join(',');
    let read = tags.get(name);
    if (!read) {
      read = coalesced(() => checkpointsTag(db, projections));
      tags.set(name, read);
    }
    return read();
  }

  return {
    async answer(request, reply, { key, projections, build }) {
      // The tag is read before the rows: an answer built from newer rows than its tag says is
      // replaced once the tag moves; one built from older rows than its tag could stay forever.
      const tag = await tagOf(projections);
      // Weak: the same tag names the plain and the gzipped bytes of one answer.
      const etag = `W/"${createHash('sha256').update(`${key}\n${tag}`).digest('base64url').slice(0, 27)}"`;
      reply.header('ETag', etag).header('Vary', 'Accept-Encoding');
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      let entry = entries.get(key);
      if (entry?.etag === etag) {
        entries.delete(key);
        entries.set(key, entry);
      } else {
        entry = { etag, body: String(reply.serialize(await build())) };
        remember(key, entry);
      }
      reply.type('application/json; charset=utf-8');
      // Large answers compress about tenfold; compressed once per version, then served as is.
      if (entry.body.length >= 1024 && acceptsGzip(request.headers['accept-encoding'])) {
        if (!entry.gzipped) {
          entry.gzipped = await gzipAsync(entry.body);
          if (entries.get(key) === entry) bytes += entry.gzipped.length;
        }
        return reply.header('Content-Encoding', 'gzip').send(entry.gzipped);
      }
      return reply.send(entry.body);
    },
  };
}
