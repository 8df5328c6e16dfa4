import { CURRENT_CLUSTER_RULE_SET } from '@qiraa/clusters';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';

/**
 * `qiraa clusters min-size --school <id> --size <3..5|default>`: a school's minimum cluster size (spec Limits:
 * default 2, configurable per school to 3 to 5; docs/clusters.md). `default` removes the setting. The next
 * recompute of each class of the school uses it (and writes a new generation when clusters change).
 */
export async function clustersMinSizeCommand(options: { school: string; size: string }): Promise<void> {
  const { schoolMin, schoolMax, default: fallback } = CURRENT_CLUSTER_RULE_SET.minClusterSize;
  const size = options.size === 'default' ? null : Number(options.size);
  if (size !== null && !(Number.isInteger(size) && size >= schoolMin && size <= schoolMax)) {
    throw new CliError(`--size must be ${schoolMin} to ${schoolMax}, or default (${fallback})`, 2);
  }
  await withRuntime(async ({ sql }) => {
    const [school] = await sql`select 1 from schools where id = ${options.school}`;
    if (!school) throw new CliError(`no school ${options.school}`, 1);
    if (size === null) await sql`delete from clu_school_settings where school_id = ${options.school}`;
    else
      await sql`
        insert into clu_school_settings (school_id, min_cluster_size) values (${options.school}, ${size})
        on conflict (school_id) do update set min_cluster_size = excluded.min_cluster_size, updated_at = now()`;
  });
  console.log(`school ${options.school}: minimum cluster size ${size ?? `${fallback} (default)`}`);
}
