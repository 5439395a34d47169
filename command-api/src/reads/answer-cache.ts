import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { calendarDateOf } from '@kosh/domain';
import type { AsOfReadModel, AsOfScope } from '@kosh/projections';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Platform } from '../platform';
import { lruMap } from '../support/lru-map';
import { requestTags, tagOf } from './checkpoint-tags';
import { type ReadSource, readAt, readsLive } from './read-at';

/**
 * Serialised answers of the live reads (a ledger month, a loan's schedule, the lists and totals),
 * kept in this process and tagged with the change counts of the projections they read. A read
 * model's tables change only in the transaction that moves its count (checkpoint-tags.ts), so an
 * unchanged count means an unchanged answer: the request then shares one read of the counts with
 * every request that arrived with it, and `If-None-Match` with the ETag gets a 304. Any process
 * may serve any request: a process with an older entry sees the count moved. The counts are per
 * user and read model (checkpoint-tags.ts): a user's write renews that user's answers (and an
 * auditor's of that user's account, keyed and tagged by the account), not everyone's; a shared
 * change (the catalog, a rebuild) renews all.
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
    options: {
      key: string;
      projections: readonly string[];
      build: () => Promise<unknown>;
      /**
       * The route's own ETag (a loan's version, for If-Match), asked for right after `build`:
       * sent instead of the cache's, kept with the answer, and no 304 (it names a version of the
       * aggregate, not of this answer).
       */
      routeEtag?: () => string;
    },
  ): Promise<FastifyReply>;
};

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
/** Bodies shorter than this are compressed on the request's own turn (see `answer`). */
const SYNC_GZIP_BELOW = 16 * 1024;
/** A kept answer is compressed once per version and served as is: from this size. */
const GZIP_KEPT_FROM = 1024;
/**
 * An answer built for one request (nothing kept) is compressed from this size only: a 3.5 KB
 * page took 50–250 µs of CPU to deflate (level 1, quiet to loaded machine), for the request
 * alone, to save under 3 KB on the wire, which fits the first round trip either way. So does any
 * answer under TCP's initial window (10 segments of 1,460 bytes, less the headers): compressing
 * it saves bytes, not time. The list of 10 loans (about 10 KB) spent 160 µs a request in deflate,
 * 16 % of its node CPU (bench:http, ANSWER_CACHE_MB=0).
 */
const GZIP_UNKEPT_FROM = 14 * 1024;
/**
 * An answer compressed for one request is brotli at quality 1 where the client takes it (every
 * browser does): the 855-entry ledger month (128 KB) took 0.74 ms through gzip at level 1, 33 KB,
 * and 0.32 ms through brotli, 31 KB.
 */
const BROTLI_ONCE = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };

type Entry = { etag: string; body: string; gzipped?: Buffer; routeEtag?: string };

/** What one request's answer is sent as: plain, or compressed with its `Content-Encoding`. */
type Encoded = { coding: 'gzip' | 'br'; bytes: Buffer };

/** `If-None-Match` holds `etag` (a list, or `*`); weak comparison, as for GET. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === opaque;
  });
}

/** `Accept-Encoding` names `wanted` (or `*`) without refusing it (`;q=0`). */
function accepts(header: string | string[] | undefined, wanted: 'gzip' | 'br'): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== wanted && coding !== '*') return false;
    return !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}

/**
 * A body compressed for this request alone (nothing kept): brotli if the client takes it, else
 * gzip at its fastest level (a 600-row schedule, 219 KB: 16 KB in 7 ms at gzip's default level,
 * 25 KB in 3 ms at level 1); null if it takes neither. A small body is compressed at once: the
 * thread pool's hand-off cost more than the compression (a 3 KB page: 150 µs of CPU through
 * `gzip`, 45 µs through `gzipSync`).
 */
async function encodeOnce(body: string, header: string | string[] | undefined): Promise<Encoded | null> {
  const small = body.length < SYNC_GZIP_BELOW;
  if (accepts(header, 'br')) {
    return {
      coding: 'br',
      bytes: small ? brotliCompressSync(body, BROTLI_ONCE) : await brotliAsync(body, BROTLI_ONCE),
    };
  }
  if (accepts(header, 'gzip')) {
    const options = { level: 1 };
    return { coding: 'gzip', bytes: small ? gzipSync(body, options) : await gzipAsync(body, options) };
  }
  return null;
}

/** A cache of `ANSWER_CACHE_MB` (0: none kept, each read built; the ETag and 304 still hold). */
export function createAnswerCache(
  platform: Pick<Platform, 'db' | 'config'> & { metrics?: Pick<Platform['metrics'], 'answerCache'> },
): AnswerCache {
  const { db } = platform;
  const counter = platform.metrics?.answerCache;
  const count = (request: FastifyRequest, outcome: 'hit' | 'miss' | 'not_modified') =>
    counter?.inc({ route: request.routeOptions.url ?? 'unmatched', outcome });
  const maxBytes = platform.config.ANSWER_CACHE_MB * 1024 * 1024;
  const entries = lruMap<Entry>(maxBytes, (entry) => entry.body.length + (entry.gzipped?.length ?? 0));
  const gzipFrom = maxBytes > 0 ? GZIP_KEPT_FROM : GZIP_UNKEPT_FROM;

  return {
    async answer(request, reply, { key, projections, build, routeEtag }) {
      // The tag is read before the rows: an answer built from newer rows than its tag says is
      // replaced once the tag moves; one built from older rows than its tag could stay forever.
      // The counts of the user the answer is about (an auditor's request reads the owner's):
      // shared with the token check of the same request.
      const tag = tagOf(await requestTags(db, request, request.userId), projections);
      // Weak: the same tag names the plain and the gzipped bytes of one answer.
      const etag = `W/"${createHash('sha256').update(`${key}\n${tag}`).digest('base64url').slice(0, 27)}"`;
      reply.header('Vary', 'Accept-Encoding');
      if (!routeEtag) {
        reply.header('ETag', etag);
        if (matches(request.headers['if-none-match'], etag)) {
          count(request, 'not_modified');
          return reply.code(304).send();
        }
      }
      let entry = entries.get(key);
      if (entry?.etag !== etag) {
        count(request, 'miss');
        entry = { etag, body: String(reply.serialize(await build())), routeEtag: routeEtag?.() };
        entries.set(key, entry);
      } else count(request, 'hit');
      if (entry.routeEtag !== undefined) reply.header('ETag', entry.routeEtag);
      reply.type('application/json; charset=utf-8');
      if (entry.body.length < gzipFrom) return reply.send(entry.body);
      const acceptEncoding = request.headers['accept-encoding'];
      if (maxBytes === 0) {
        // Nothing kept: compressed for this request alone.
        const encoded = await encodeOnce(entry.body, acceptEncoding);
        if (!encoded) return reply.send(entry.body);
        return reply.header('Content-Encoding', encoded.coding).send(encoded.bytes);
      }
      // Large answers compress about tenfold; compressed once per version, then served as is.
      if (accepts(acceptEncoding, 'gzip')) {
        if (!entry.gzipped) {
          entry.gzipped =
            entry.body.length < SYNC_GZIP_BELOW ? gzipSync(entry.body) : await gzipAsync(entry.body);
          entries.grew(key, entry, entry.gzipped.length);
        }
        return reply.header('Content-Encoding', 'gzip').send(entry.gzipped);
      }
      return reply.send(entry.body);
    },
  };
}

/**
 * A read route's body, answered live through `cache` (served again while the checkpoints of
 * `models` and `alsoReads` hold) or, with `as_of` or under an auditor's as-of limit, replayed by
 * `readAt`: one body for both. The cache key is the user, the route, its params and query text
 * and the India date of "now" (a body may depend on today: standings, the current month); a
 * query the body refuses (422) throws before anything is stored.
 */
export async function cachedReadAt<T>(
  platform: Platform,
  cache: AnswerCache,
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    models: readonly AsOfReadModel[];
    /** Read models the body reads that an as-of replay does not rebuild (e.g. the catalog). */
    alsoReads?: readonly string[];
    body: (source: ReadSource) => Promise<T>;
    /** Narrows an as-of replay to what `body` reads at that instant (`readAt`). */
    scopeAt?: (asOf: Date) => AsOfScope;
    /** The live answer's own ETag instead of the cache's (`AnswerCache.answer`'s `routeEtag`). */
    routeEtag?: () => string;
  },
): Promise<T | FastifyReply> {
  if (!readsLive(request)) return readAt(platform, request, options.models, options.body, options.scopeAt);
  const now = platform.clock();
  const key = [
    request.userId,
    request.routeOptions.url,
    JSON.stringify(request.params ?? null),
    JSON.stringify(request.query ?? null),
    calendarDateOf(now),
  ].join('\n');
  return cache.answer(request, reply, {
    key,
    projections: [...options.models, ...(options.alsoReads ?? [])],
    build: () => options.body({ db: platform.db, now, asOf: null }),
    routeEtag: options.routeEtag,
  });
}
