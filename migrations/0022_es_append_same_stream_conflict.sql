-- es_append (0004) answered an expected-version conflict with 'event ids already stored elsewhere in the log'
-- when some of the ids had been appended to the same stream meanwhile (two recomputes of one student that
-- share a deterministic id: the loser's stream moved on). Only ids stored in another stream are that error now;
-- the same stream having moved on past an expected version is a 'conflict' the caller retries (or, all ids
-- there, a 'duplicate'). With expected 'any' a partly stored batch stays an error, as before.
create or replace function es_append(
  p_stream_id text,
  p_stream_type text,
  p_expected text,
  p_expected_version bigint,
  p_event_ids uuid[],
  p_types text[],
  p_schema_versions int[],
  p_data jsonb[],
  p_metadata jsonb[]
) returns table (
  outcome text,
  stream_version bigint,
  actual_version bigint,
  global_position bigint,
  transaction_id text,
  event_version bigint,
  created_at timestamptz
) language plpgsql as $$
declare
  n bigint := cardinality(p_event_ids);
  v_new bigint;
begin
  -- The block is a subtransaction: on a duplicate event id the stream row's update is undone with it.
  begin
    if p_expected = 'no_stream' or (p_expected = 'version' and p_expected_version = 0) then
      insert into es_streams (stream_id, stream_type, version) values (p_stream_id, p_stream_type, n)
      on conflict (stream_id) do nothing
      returning version into v_new;
    elsif p_expected = 'any' then
      insert into es_streams (stream_id, stream_type, version) values (p_stream_id, p_stream_type, n)
      on conflict (stream_id) do update set version = es_streams.version + excluded.version, updated_at = now()
      returning version into v_new;
    elsif p_expected = 'stream_exists' then
      update es_streams s set version = s.version + n, updated_at = now()
      where s.stream_id = p_stream_id returning s.version into v_new;
    else
      update es_streams s set version = s.version + n, updated_at = now()
      where s.stream_id = p_stream_id and s.version = p_expected_version returning s.version into v_new;
    end if;

    if v_new is not null then
      return query
        insert into es_events as e (stream_id, stream_version, event_id, event_type, schema_version, data, metadata)
        select p_stream_id, v_new - n + x.ord, x.id, x.t, x.s, x.d, x.m
        from unnest(p_event_ids, p_types, p_schema_versions, p_data, p_metadata) with ordinality
          as x(id, t, s, d, m, ord)
        returning 'appended'::text, v_new, null::bigint, e.global_position, e.transaction_id::text,
                  e.stream_version, e.created_at;
      return;
    end if;
  exception when unique_violation then
    if sqlerrm not like '%es_events_event_id_key%' then
      raise;
    end if;
  end;

  -- Nothing written: a retry of an append that already landed, or a real conflict.
  if (select count(*) from es_events ev where ev.event_id = any(p_event_ids) and ev.stream_id = p_stream_id) = n then
    return query select 'duplicate'::text, s.version, s.version, null::bigint, null::text, null::bigint,
                        null::timestamptz
                 from es_streams s where s.stream_id = p_stream_id;
  elsif exists (select 1 from es_events ev where ev.event_id = any(p_event_ids)
                and (ev.stream_id <> p_stream_id or p_expected = 'any')) then
    raise exception 'event ids already stored elsewhere in the log' using errcode = 'unique_violation',
      constraint = 'es_events_event_id_key';
  else
    return query select 'conflict'::text, null::bigint,
                        (select s.version from es_streams s where s.stream_id = p_stream_id),
                        null::bigint, null::text, null::bigint, null::timestamptz;
  end if;
end;
$$;
