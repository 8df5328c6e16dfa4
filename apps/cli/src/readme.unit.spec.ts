import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from './program';

const README = new URL('../../../README.md', import.meta.url);

/** Every command an operator can run, as typed after `qiraa` (`projections status`, `seed-demo`). */
function leafCommands(command: Command, prefix: string[] = []): string[] {
  return command.commands.flatMap((sub) => {
    const path = [...prefix, sub.name()];
    return sub.commands.length > 0 ? leafCommands(sub, path) : [path.join(' ')];
  });
}

describe('README, "Operator CLI"', () => {
  it('lists every command of the program (apps/cli/src/program.ts) in its table', async () => {
    const readme = await readFile(README, 'utf8');
    const section = readme.slice(readme.indexOf('## Operator CLI'), readme.indexOf('## Other scripts'));
    const listed = [...section.matchAll(/^\| `qiraa ([a-z-]+(?: [a-z-]+)?)/gm)].map((m) => m[1]);
    const commands = leafCommands(buildProgram());
    expect(commands.length).toBeGreaterThan(15);
    expect(commands.filter((c) => !listed.includes(c))).toEqual([]);
  });
});
