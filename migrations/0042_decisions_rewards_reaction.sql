-- Decisions → gamification became a reaction (decisions_rewards_reaction, docs/decisions.md "A reaction, not the
-- recompute's transaction"). Every decision stored before this release had its mastery events (and its voids'
-- reversals) written in the transaction that appended it, so the new reaction starts at the head of the log
-- instead of reading it all again (which would find only duplicates). On an empty log (a new database, or the
-- KurrentDB store, whose log is not in es_events) no row is written and the reaction starts from the beginning.
insert into reaction_checkpoints (name, checkpoint, events_handled, updated_at)
select 'decisions_rewards_reaction', e.transaction_id::text || ':' || e.global_position::text, 0, now()
from es_events e
order by e.transaction_id desc, e.global_position desc
limit 1
on conflict (name) do nothing;
