-- Issue 33: the read horizon of this database, not of the cluster. Readers used to see the log only
-- below pg_snapshot_xmin(pg_current_snapshot()), the oldest transaction running anywhere on the
-- server: a long transaction in another database (a report, a test, another app) held every
-- reader back for as long as it ran. Transaction ids are cluster-wide, but a transaction can only
-- write to the database it is connected to, so one that is known to run in another database can
-- never add an event here and need not hold the horizon.
--
-- kosh_read_horizon(): the oldest transaction still in progress in the reader's snapshot that is
-- not known to belong to another database, or the snapshot's xmax when there is none. "Known" is
-- pg_stat_activity showing a backend of another database with that transaction id (a session's
-- database never changes, so when that was read does not matter). A transaction that ended
-- between the snapshot and that look, a prepared transaction, or a backend whose row is hidden
-- (a role without pg_read_all_stats sees NULLs for other roles' sessions) counts as this
-- database's: held back, as before, never skipped. The look is made only when the snapshot has a
-- transaction in progress at all.
-- Cheap first: with no transaction in progress, xmin = xmax. Otherwise one index probe finds the
-- lowest transaction id among the event rows at or above xmin (committed or not): when there is
-- none, xmin hides nothing; when it is xmin itself, xmin is appending here (the usual case under
-- write load) and is the horizon. Otherwise the in-progress ids are taken in order, skipping those
-- this session already knows run elsewhere (kept in the session setting kosh.xids_elsewhere: a
-- transaction's database never changes); the first one left is the horizon when the same probe
-- from it finds no row or its own rows. Only otherwise is the list of backends read
-- (pg_stat_get_activity, the function behind the pg_stat_activity view: about 0.2 ms with 40
-- connections on a loaded machine), which refreshes the known list. plpgsql, so that its
-- statements are planned once per session (an SQL function in a WHERE clause is planned again on
-- every call). PARALLEL UNSAFE: it writes a session setting.
CREATE FUNCTION kosh_read_horizon() RETURNS xid8
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
AS $$
DECLARE
  s pg_snapshot := pg_current_snapshot();
  v_first xid8;
  v_candidate xid8;
  v_elsewhere xid8[];
  v_backends bigint[];
BEGIN
  IF pg_snapshot_xmin(s) = pg_snapshot_xmax(s) THEN
    RETURN pg_snapshot_xmax(s);
  END IF;
  SELECT e.transaction_id INTO v_first
    FROM events e
   WHERE e.transaction_id >= pg_snapshot_xmin(s)
   ORDER BY e.transaction_id
   LIMIT 1;
  IF v_first IS NULL OR v_first = pg_snapshot_xmin(s) THEN
    RETURN pg_snapshot_xmin(s);
  END IF;
  v_elsewhere := coalesce(nullif(current_setting('kosh.xids_elsewhere', true), ''), '{}')::xid8[];
  v_candidate := (SELECT min(x) FROM pg_snapshot_xip(s) AS x WHERE x <> ALL (v_elsewhere));
  IF v_candidate IS NULL THEN
    RETURN pg_snapshot_xmax(s);
  END IF;
  SELECT e.transaction_id INTO v_first
    FROM events e
   WHERE e.transaction_id >= v_candidate
   ORDER BY e.transaction_id
   LIMIT 1;
  IF v_first IS NULL OR v_first = v_candidate THEN
    -- Nothing at or past it to hide, or it appends here: the horizon either way.
    RETURN v_candidate;
  END IF;
  -- backend_xid is a 32-bit xid: matched to the snapshot's in-progress ids by its low 32 bits.
  v_backends := ARRAY(
    SELECT a.backend_xid::text::bigint
      FROM pg_stat_get_activity(NULL::integer) AS a
     WHERE a.backend_xid IS NOT NULL
       AND a.datid <> (SELECT d.oid FROM pg_database d WHERE d.datname = current_database()));
  v_elsewhere := ARRAY(SELECT x FROM pg_snapshot_xip(s) AS x WHERE (x::text::bigint % 4294967296) = ANY (v_backends));
  PERFORM set_config('kosh.xids_elsewhere', v_elsewhere::text, false);
  RETURN coalesce((SELECT min(x) FROM pg_snapshot_xip(s) AS x WHERE x <> ALL (v_elsewhere)), pg_snapshot_xmax(s));
END
$$;
