-- Clusters (packages/clusters, docs/clusters.md): the generations of a class's clusters and the bundle
-- assignments of bulk activation (read models of the projections `clusters_generations` and
-- `clusters_assignments`, rebuildable from `clustergen-<classId>` and `bundleassign-<studentId>`), and the
-- per-school minimum cluster size (an ordinary setting).

-- A school's minimum cluster size (spec Limits: default 2, configurable per school to 3 to 5). No row: the
-- rule set's default. Set with `qiraa clusters min-size`.
create table clu_school_settings (
  school_id        text primary key references schools (id),
  min_cluster_size smallint not null check (min_cluster_size between 3 and 5),
  updated_at       timestamptz not null default now()
);

-- One row per generation (ClusterGenerationComputed): append-only, each expiring at created_at + 60 days.
create table clu_generations (
  generation_id      uuid primary key,
  class_id           text not null,
  organization_id    text not null,
  rule_set_version   text not null,
  min_cluster_size   smallint not null,
  digest             text not null,
  individual_review  jsonb not null,
  more_data_needed   jsonb not null,
  dropped_student_ids bigint[] not null,
  recommendation_ids text[] not null,
  created_at         timestamptz not null,
  expires_at         timestamptz not null,
  stream_version     bigint not null,
  check (expires_at > created_at)
);
create index clu_generations_class on clu_generations (class_id, stream_version desc);

-- The members of each cluster of a generation.
create table clu_members (
  generation_id            uuid not null,
  student_id               bigint not null,
  cluster_key              text not null,
  bundle_id                text not null,
  anchor_skill_group       text not null,
  scaffold_tier            text not null check (scaffold_tier in ('Level_1', 'Level_2', 'Level_3', 'MERGE_L1_L2')),
  compatible_delivery_mode text not null check (compatible_delivery_mode in ('teacher_led', 'independent')),
  sufficient_data          boolean not null,
  rule_ids                 text[] not null,
  primary key (generation_id, student_id)
);
create index clu_members_student on clu_members (student_id);

-- One row per bundle assignment of a bulk activation (BundleAssigned).
create table clu_assignments (
  assignment_id    uuid primary key,
  student_id       bigint not null,
  class_id         text not null,
  bundle_id        text not null,
  cluster_key      text not null,
  generation_id    uuid not null,
  rule_set_version text not null,
  activated_by     bigint not null,
  activated_at     timestamptz not null
);
create index clu_assignments_student on clu_assignments (student_id, activated_at desc);
