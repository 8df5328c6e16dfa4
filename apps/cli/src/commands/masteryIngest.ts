import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { IngestBody, recordMasteryEvent } from '@qiraa/gamification';
import { compileBodyValidator } from '@qiraa/http-kit';
import type { Static } from 'typebox';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';

const validate = compileBodyValidator(IngestBody);

/**
 * `qiraa mastery ingest <file.ndjson>`: one ingest body per line, exactly as the HTTP route takes it
 * (`kind: "mastery_event"` or `kind: "halt"`), through the same command. Re-running a file stores nothing
 * twice. Prints a summary; exit 1 when any line was refused (the others are still recorded).
 */
export async function masteryIngestCommand(file: string): Promise<void> {
  await access(file).catch(() => {
    throw new CliError(`cannot read ${file}`);
  });
  const counts = { recorded: 0, duplicate: 0, halted: 0, refused: 0 };
  await withRuntime(async ({ sql, store }) => {
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
    let number = 0;
    for await (const line of lines) {
      number++;
      if (line.trim() === '') continue;
      const refuse = (why: string) => {
        counts.refused++;
        console.error(`line ${number}: ${why}`);
      };
      let body: unknown;
      try {
        body = JSON.parse(line);
      } catch {
        refuse('not valid JSON');
        continue;
      }
      const checked = validate(body);
      if (!checked.ok) {
        refuse(checked.details.map((d) => `${d.field} ${d.issue}`).join('; '));
        continue;
      }
      const input = body as Static<typeof IngestBody>;
      if (input.kind === 'halt') {
        counts.halted++;
        continue;
      }
      const { kind: _kind, ...event } = input;
      const result = await recordMasteryEvent({ sql, store }, event);
      if (result.kind === 'unknown_student') refuse(`student ${event.studentId} does not exist`);
      else counts[result.kind]++;
    }
  });
  console.log(
    `recorded ${counts.recorded}, duplicates ${counts.duplicate}, halt signals ${counts.halted} (nothing written), refused ${counts.refused}`,
  );
  if (counts.refused > 0) process.exitCode = 1;
}
