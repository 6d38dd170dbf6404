// The SQL of PgEventStorage, in one place so the scale test can EXPLAIN exactly these texts.
//
// `hankweave_journals` holds one row per execution: its event count and byte length (so count()
// is one primary-key lookup) and the key that signs its cursors. `hankweave_events` holds the
// events under the primary key (execution_id, seq): every read is a range of that index, never a
// scan. Appends lock the execution's counter row (UPDATE ... RETURNING) in the same statement or
// transaction that inserts the events, so sequence numbers are gapless and appenders of one
// execution, in any number of processes, are serialised in commit order.

/** The tables of the journal (schema component `journal`, version 1). */
export const JOURNAL_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS hankweave_journals (
     execution_id text PRIMARY KEY,
     event_count bigint NOT NULL DEFAULT 0,
     byte_length bigint NOT NULL DEFAULT 0,
     cursor_key text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE TABLE IF NOT EXISTS hankweave_events (
     execution_id text NOT NULL,
     seq bigint NOT NULL,
     line text NOT NULL,
     event jsonb,
     PRIMARY KEY (execution_id, seq))`,
];

/** $1 execution id, $2 a fresh cursor key: creates the counter row unless it exists. */
export const OPEN_JOURNAL = `INSERT INTO hankweave_journals (execution_id, cursor_key)
  VALUES ($1, $2) ON CONFLICT (execution_id) DO NOTHING`;

/** $1 execution id. */
export const SELECT_JOURNAL = `SELECT cursor_key, event_count::text AS total,
  byte_length::text AS bytes FROM hankweave_journals WHERE execution_id = $1`;

/**
 * $1 execution id, $2 how many events, $3 their bytes (with newlines), $4 the JSONL lines,
 * $5 per line whether Postgres can hold it as jsonb (it cannot hold `\u0000` or lone surrogates;
 * such events keep `event` null, `line` is always exact). One statement: counter and rows commit
 * together, and the counter row's lock orders concurrent appenders.
 */
export const APPEND_EVENTS = `WITH counter AS (
    UPDATE hankweave_journals
       SET event_count = event_count + $2::bigint, byte_length = byte_length + $3::bigint,
           updated_at = now()
     WHERE execution_id = $1
    RETURNING event_count - $2::bigint AS base)
  INSERT INTO hankweave_events (execution_id, seq, line, event)
  SELECT $1, counter.base + item.ord, item.line, CASE WHEN item.as_json THEN item.line::jsonb END
    FROM counter, unnest($4::text[], $5::boolean[]) WITH ORDINALITY AS item(line, as_json, ord)`;

/** $1 execution id, $2 limit: the newest events with the total, in one snapshot. */
export const READ_RECENT = `SELECT j.event_count::text AS total, e.seq::text AS position, e.line
    FROM hankweave_journals j
    LEFT JOIN LATERAL (
      SELECT seq, line FROM hankweave_events
       WHERE execution_id = j.execution_id
         AND seq > j.event_count - $2::bigint AND seq <= j.event_count
       ORDER BY seq) e ON true
   WHERE j.execution_id = $1
   ORDER BY e.seq`;

/** $1 execution id, $2 the cursor's sequence number, $3 limit: the page and the total. */
export const READ_AFTER = `SELECT j.event_count::text AS total, e.seq::text AS position, e.line
    FROM hankweave_journals j
    LEFT JOIN LATERAL (
      SELECT seq, line FROM hankweave_events
       WHERE execution_id = j.execution_id AND seq > $2::bigint AND seq <= j.event_count
       ORDER BY seq LIMIT $3) e ON true
   WHERE j.execution_id = $1
   ORDER BY e.seq`;

/** $1 execution id, $2 after this seq, $3 up to this seq, $4 page size: keyset paging. */
export const READ_PAGE = `SELECT seq::text AS position, line FROM hankweave_events
   WHERE execution_id = $1 AND seq > $2::bigint AND seq <= $3::bigint
   ORDER BY seq LIMIT $4`;
