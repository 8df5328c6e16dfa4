-- Auditors (issue 26, docs/auditing.md): a per-stream hash chain over every event, the student → streams
-- index and each stream's organization (both maintained by es_append, in the append's own statement), and
-- the checkpoints of the global digest that `qiraa events verify` records.

-- The chain. An event's hash is sha256(previous event's hash in its stream (empty for version 1)
-- || int8(stream_version) || int8(created_at in microseconds) || content hash), where the content hash is
-- sha256 of the UTF-8 text of jsonb_build_array(event_id::text, stream_id, event_type, schema_version,
-- data, metadata) (jsonb's canonical text; the application computes the same bytes, see
-- packages/eventstore/src/chain/contentHash.ts, so the append sends 32 bytes per event, not a second copy).
create function es_chain_step(p_prev bytea, p_version bigint, p_created_at timestamptz, p_content bytea)
returns bytea language sql immutable parallel safe as $$
  select sha256(coalesce(p_prev, ''::bytea) || int8send(p_version)
                || int8send((extract(epoch from p_created_at) * 1000000)::bigint) || p_content)
$$;

alter table es_events add column hash bytea;
-- Set once at the append from the events' metadata (organizationId), else by this migration from the
-- student the stream is about; null: a platform stream (super scope only).
alter table es_streams add column organization_id text;
create index es_streams_organization_idx on es_streams (organization_id, stream_id);

-- Every stream with an event whose data names a student (`data.studentId`), filled by es_append.
create table es_stream_students (
  student_id bigint not null,
  stream_id  text not null references es_streams (stream_id),
  primary key (student_id, stream_id)
);
-- A stream's students (its organization when the stream names none).
create index es_stream_students_stream_idx on es_stream_students (stream_id);
-- GET /api/admin/events/{eventId} lists the events it caused.
create index es_events_causation_idx on es_events ((metadata->>'causationId')) where metadata ? 'causationId';

-- What a full `qiraa events verify` recomputed: the running digest (sha256(digest || event hash), from the
-- empty string, in commit order) of every event up to `position`. A later run recomputes the digest from the
-- first event and must meet each recorded one: a deleted, inserted or re-ordered event before it shows.
create table es_verify_checkpoints (
  id              bigint generated always as identity primary key,
  transaction_id  xid8 not null,
  global_position bigint not null,
  events          bigint not null,
  digest          bytea not null,
  verified_at     timestamptz not null,
  unique (transaction_id, global_position)
);

-- Backfill the index and the organizations from the existing events.
insert into es_stream_students (student_id, stream_id)
select distinct (data->>'studentId')::bigint, stream_id
from es_events
where jsonb_typeof(data) = 'object' and (data->>'studentId') ~ '^[0-9]{1,18}$'
on conflict do nothing;

update es_streams s set organization_id = o.organization_id
from (
  select distinct on (stream_id) stream_id, metadata->>'organizationId' as organization_id
  from es_events where metadata->>'organizationId' is not null
  order by stream_id, stream_version
) o
where o.stream_id = s.stream_id;

update es_streams s set organization_id = o.organization_id
from (
  select distinct on (ss.stream_id) ss.stream_id, u.organization_id
  from es_stream_students ss join users u on u.id = ss.student_id
  where u.organization_id is not null
  order by ss.stream_id, ss.student_id
) o
where o.stream_id = s.stream_id and s.organization_id is null;

update es_streams s set organization_id = substr(s.stream_id, 7)
where s.organization_id is null and s.stream_id like 'audit-%'
  and exists (select 1 from organizations o where o.id = substr(s.stream_id, 7));

-- Chain the existing events: a running aggregate per stream in version order.
create function es_chain_acc(p_state bytea, p_step bytea) returns bytea language sql immutable as $$
  select sha256(coalesce(p_state, ''::bytea) || p_step)
$$;
create aggregate es_chain(bytea) (sfunc = es_chain_acc, stype = bytea);

alter table es_events disable trigger es_events_no_update;
update es_events e set hash = c.hash
from (
  select stream_id, stream_version,
         es_chain(int8send(stream_version) || int8send((extract(epoch from created_at) * 1000000)::bigint)
                  || sha256(convert_to(jsonb_build_array(event_id::text, stream_id, event_type, schema_version,
                                                         data, metadata)::text, 'UTF8')))
           over (partition by stream_id order by stream_version) as hash
  from es_events
) c
where c.stream_id = e.stream_id and c.stream_version = e.stream_version;
alter table es_events enable trigger es_events_no_update;

drop aggregate es_chain(bytea);
drop function es_chain_acc(bytea, bytea);
alter table es_events alter column hash set not null;

-- es_append with the content hashes: it chains them to the stream's last hash (one primary-key read of
-- the row before the first new version), records the stream's organization and the students its events
-- name. Same outcomes as 0022.
drop function es_append(text, text, text, bigint, uuid[], text[], int[], jsonb[], jsonb[]);
create function es_append(
  p_stream_id text,
  p_stream_type text,
  p_expected text,
  p_expected_version bigint,
  p_event_ids uuid[],
  p_types text[],
  p_schema_versions int[],
  p_data jsonb[],
  p_metadata jsonb[],
  p_content_hashes bytea[]
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
  v_org text := (select m->>'organizationId' from unnest(p_metadata) m
                 where m->>'organizationId' is not null limit 1);
  v_at timestamptz := now();
  v_prev bytea;
  v_hashes bytea[] := '{}';
begin
  if cardinality(p_content_hashes) is distinct from n then
    raise exception 'es_append needs one content hash per event' using errcode = 'invalid_parameter_value';
  end if;
  -- The block is a subtransaction: on a duplicate event id the stream row's update is undone with it.
  begin
    if p_expected = 'no_stream' or (p_expected = 'version' and p_expected_version = 0) then
      insert into es_streams (stream_id, stream_type, version, organization_id)
      values (p_stream_id, p_stream_type, n, v_org)
      on conflict (stream_id) do nothing
      returning version into v_new;
    elsif p_expected = 'any' then
      insert into es_streams (stream_id, stream_type, version, organization_id)
      values (p_stream_id, p_stream_type, n, v_org)
      on conflict (stream_id) do update set version = es_streams.version + excluded.version, updated_at = now(),
        organization_id = coalesce(es_streams.organization_id, excluded.organization_id)
      returning version into v_new;
    elsif p_expected = 'stream_exists' then
      update es_streams s set version = s.version + n, updated_at = now(),
        organization_id = coalesce(s.organization_id, v_org)
      where s.stream_id = p_stream_id returning s.version into v_new;
    else
      update es_streams s set version = s.version + n, updated_at = now(),
        organization_id = coalesce(s.organization_id, v_org)
      where s.stream_id = p_stream_id and s.version = p_expected_version returning s.version into v_new;
    end if;

    if v_new is not null then
      if v_new > n then
        select e.hash into v_prev from es_events e
        where e.stream_id = p_stream_id and e.stream_version = v_new - n;
      end if;
      for i in 1..n loop
        v_prev := es_chain_step(v_prev, v_new - n + i, v_at, p_content_hashes[i]);
        v_hashes := v_hashes || v_prev;
      end loop;
      insert into es_stream_students (student_id, stream_id)
      select distinct (d->>'studentId')::bigint, p_stream_id from unnest(p_data) d
      where jsonb_typeof(d) = 'object' and (d->>'studentId') ~ '^[0-9]{1,18}$'
      on conflict do nothing;
      return query
        insert into es_events as e (stream_id, stream_version, event_id, event_type, schema_version, data, metadata,
                                    created_at, hash)
        select p_stream_id, v_new - n + x.ord, x.id, x.t, x.s, x.d, x.m, v_at, x.h
        from unnest(p_event_ids, p_types, p_schema_versions, p_data, p_metadata, v_hashes) with ordinality
          as x(id, t, s, d, m, h, ord)
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
