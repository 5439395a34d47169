/**
 * One run of `read` shared by concurrent callers, never started before the caller came: a caller
 * joins a run that starts after it arrived (the next one, queued behind the run in flight). For
 * the checkpoint tags (reads/checkpoint-tags.ts): a request still sees every write that finished
 * before it came (read-your-writes), from any process, and under load one small statement serves
 * every request that arrived while the previous one ran.
 */
export function coalesced<T>(read: () => Promise<T>): () => Promise<T> {
  let next: Promise<T> | null = null;
  let inFlight: Promise<unknown> = Promise.resolve();
  return () => {
    if (!next) {
      const run = () => {
        next = null;
        return read();
      };
      const started = inFlight.then(run, run);
      next = started;
      inFlight = started.catch(() => {});
    }
    return next;
  };
}
