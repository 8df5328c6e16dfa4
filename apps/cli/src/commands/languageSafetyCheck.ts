import { isLanguageSafetyTier, LanguageSafetyUnavailableError, reloadLanguageSafety } from '@qiraa/language-safety';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';

export interface LanguageSafetyCheckOptions {
  tier: string;
}

/**
 * `qiraa language-safety check "<text>" [--tier general|parent]`, for authors of templates and content: runs
 * the filter with the rule set in the database. Prints `PASS` (exit 0), or `REWRITE`, the rewritten text and
 * each rule that fired with the text it matched (exit 1). An unavailable rule set is an error (exit 1, stderr).
 */
export async function languageSafetyCheckCommand(text: string, options: LanguageSafetyCheckOptions): Promise<void> {
  const tier = options.tier;
  if (!isLanguageSafetyTier(tier)) throw new CliError(`--tier must be general or parent, not "${tier}"`, 2);
  const { version, result } = await withRuntime(async ({ sql }) => {
    try {
      const filter = await reloadLanguageSafety(sql);
      return { version: filter.version, result: filter.check(text, tier) };
    } catch (error) {
      if (error instanceof LanguageSafetyUnavailableError) {
        throw new CliError(`language-safety rule set unavailable (${error.reason}): ${error.message}`);
      }
      throw error;
    }
  });
  if (result.kind === 'pass') {
    console.log(`PASS (${tier} tier, rule set ${version})`);
    return;
  }
  console.log(`REWRITE (${tier} tier, rule set ${version})`);
  console.log(`  ${result.rewritten}`);
  console.log('fired:');
  for (const fired of result.fired) console.log(`  ${fired.ruleId}  ${fired.match}`);
  process.exitCode = 1;
}
