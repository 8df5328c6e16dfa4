import type { Command } from 'commander';

let running = 'qiraa';

/** The full name of the command being run (`events verify`), set by the program's preAction hook. */
export const runningCommand = () => running;

export function rememberCommand(command: Command): void {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  running = names.join(' ') || 'qiraa';
}
