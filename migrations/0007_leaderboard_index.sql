-- Leaderboards (packages/gamification/src/queries/leaderboard*.ts) count each rostered student's mastery
-- events in a window of school days: one range scan per student on this index, index-only because the
-- source kind is carried in it (no heap visit), so a school of 2,000 students with 1,000,000 events stays
-- fast. gam_mastery_events_day_idx (school_day, student_id) would read every organization's events of the
-- window instead.
create index gam_mastery_events_student_day_idx on gam_mastery_events (student_id, school_day) include (source_kind);
