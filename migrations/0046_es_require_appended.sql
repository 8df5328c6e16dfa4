-- A guard for statements pipelined behind an append (issue 28): a command that sends its append, the inline
-- projection's statements and COMMIT in one exchange cannot look at es_append's outcome before COMMIT goes
-- out. It sends this right behind the append instead: unless every event was written by this very
-- transaction (an expected-version conflict or a duplicate writes nothing and raises nothing in es_append),
-- it raises, the transaction is aborted, the statements behind it fail and COMMIT ends in ROLLBACK.
create function es_require_appended(p_event_ids uuid[]) returns void
language plpgsql as $$
declare
  written int;
begin
  select count(*) into written from es_events
  where event_id = any(p_event_ids) and transaction_id = pg_current_xact_id();
  if written <> cardinality(p_event_ids) then
    raise exception 'es_require_appended: % of % events appended by this transaction', written, cardinality(p_event_ids)
      using errcode = 'P0004'; -- assert_failure
  end if;
end
$$;
