-- Two more cross-context effects became reactions (issue 22): training → gamification
-- (training_level_rewards_reaction: a level moved up earns scaffold_tier_step_up, docs/training.md "Level moves") and
-- clusters → notifications (clusters_parent_notifier: a bundle assignment tells the linked parents,
-- docs/clusters.md). Before this release both were written by the command itself (the credit in the answer's
-- transaction, the notice right after the activation), so each reaction starts at the head of the log instead of
-- reading it all again (which would find only what is already stored, under the same engine event ids and
-- dispatch keys). On an empty log (a new database, or the KurrentDB store, whose log is not in es_events) no row
-- is written and the reactions start from the beginning.
insert into reaction_checkpoints (name, checkpoint, events_handled, updated_at)
select r.name, e.transaction_id::text || ':' || e.global_position::text, 0, now()
from (
  select transaction_id, global_position from es_events order by transaction_id desc, global_position desc limit 1
) e
cross join (values ('training_level_rewards_reaction'), ('clusters_parent_notifier')) as r (name)
on conflict (name) do nothing;
