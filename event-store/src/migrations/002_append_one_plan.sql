-- kosh_append_one pins its plan (001 is released: not edited). Left to plan_cache_mode "auto",
-- a session's cached generic plan made while `events` was small and unanalysed scans the table:
-- a lone append took 12.6 ms at 50k events instead of 0.56 ms (issue 11). One plan per session,
-- as kosh_append_batch, and never a sequential scan: every lookup here is by a unique index
-- (stream_id, stream_version) or (event_id), and a custom plan per call costs more than the
-- append itself. `npm run bench:eventstore` (section lone-append) shows the latency at 0 and
-- 50k events.
ALTER FUNCTION kosh_append_one(text, integer, text[], text[], jsonb[], jsonb[])
  SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION kosh_append_one(text, integer, text[], text[], jsonb[], jsonb[])
  SET enable_seqscan = off;
