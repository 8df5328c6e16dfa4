import { LANGUAGE_SAFETY_TIERS } from '@qiraa/language-safety';
import { Command, Option } from 'commander';
import { rememberCommand } from './commandName';
import { clustersMinSizeCommand } from './commands/clustersMinSize';
import { contentImportCommand } from './commands/contentImport';
import { decisionsReplayCommand } from './commands/decisionsReplay';
import { eventsReadCommand, eventsTailCommand } from './commands/events';
import { eventsGetCommand, eventsStreamsCommand, eventsVerifyCommand } from './commands/eventsAudit';
import { gamificationReplayCommand } from './commands/gamificationReplay';
import { languageSafetyCheckCommand } from './commands/languageSafetyCheck';
import { masteryIngestCommand } from './commands/masteryIngest';
import { migrateCommand } from './commands/migrate';
import { notificationsDispatchCommand } from './commands/notificationsDispatch';
import { openapiCommand } from './commands/openapi';
import { projectionsRebuildCommand } from './commands/projectionsRebuild';
import { projectionsStatusCommand } from './commands/projectionsStatus';
import { reactionsRetryCommand, reactionsStatusCommand } from './commands/reactions';
import { rosterImportCommand } from './commands/rosterImport';
import { schedulesStatusCommand } from './commands/schedulesStatus';
import { seedDemoCommand } from './commands/seedDemo';

export function buildProgram(): Command {
  const program = new Command('qiraa')
    .description('qiraa operator CLI. Uses DATABASE_URL, or the embedded database under DATA_DIR (default ./.data).')
    .showHelpAfterError()
    .exitOverride()
    // The events a command appends name it as their system actor (withRuntime's write context).
    .hook('preAction', (_program, action) => rememberCommand(action));

  program.command('migrate').description('apply pending migrations from migrations/').action(migrateCommand);

  const projections = program.command('projections').description('read-model projections');
  projections
    .command('status')
    .description("each projection's checkpoint, the log head and the lag")
    .option('--json', 'print JSON instead of a table')
    .action(projectionsStatusCommand);
  projections
    .command('rebuild [name]')
    .description('rebuild one projection (or all) from position zero into fresh tables and swap them in')
    .option('--batch <size>', 'events per batch', '1000')
    .action(projectionsRebuildCommand);

  const reactions = program
    .command('reactions')
    .description('effects on other contexts (notifications, credits): checkpointed consumers that park what fails');
  reactions
    .command('status')
    .description("each reaction's checkpoint, lag and parked events, then the parked events")
    .option('--json', 'print JSON instead of tables')
    .action(reactionsStatusCommand);
  reactions
    .command('retry <name>')
    .description('handle the reaction’s parked events again (or one); exit 1 when any stays parked')
    .option('--event <id>', 'only this parked event')
    .action(reactionsRetryCommand);

  program
    .command('schedules')
    .description('rules that wait for time (docs/operations.md, "Schedules")')
    .command('status')
    .description(
      "each schedule's last run and when it is next due (by the service's clock, QIRAA_CLOCK_SHIFT_DAYS included)",
    )
    .option('--json', 'print JSON instead of a table')
    .action(schedulesStatusCommand);

  program
    .command('mastery')
    .description('mastery events from the decision engine')
    .command('ingest <file>')
    .description('ingest an NDJSON file of ingest bodies (as POST /api/gamification/mastery-events takes them)')
    .action(masteryIngestCommand);

  program
    .command('content')
    .description('the item bank, forms, word lists, scaffold prompts and the diagnostic blueprint')
    .command('import <dir>')
    .description(
      'import a content pack (manifest.json and its import bodies) as global content, approve it and set its ' +
        'global blueprint cells; exit 1 when any row or cell is refused',
    )
    .action(contentImportCommand);

  program
    .command('gamification')
    .description('the gamification ledger')
    .command('replay')
    .description('fold the streams of one student (or all) and compare with the read models; exit 1 on drift')
    .option('--student <id>', 'one student')
    .option('--all', 'every student')
    .option('--as-of <iso>', 'fold events created at or before this instant (default: now)')
    .action(gamificationReplayCommand);

  program
    .command('decisions')
    .description('the decisions of the rule engine')
    .command('replay')
    .description(
      're-decide the skill statuses of one student (or all) from the evidence with the pinned rule sets and ' +
        'compare with the read model; one line per drifting key, exit 1 on drift',
    )
    .option('--student <id>', 'one student')
    .option('--all', 'every student')
    .action(decisionsReplayCommand);

  program
    .command('language-safety')
    .description('the language-safety filter every string shown to a parent or a student passes')
    .command('check <text>')
    .description(
      'check a string with the rule set in the database: PASS (exit 0), or the rewrite and each rule fired (exit 1)',
    )
    .addOption(
      new Option('--tier <tier>', 'general (student and teacher strings) or parent (stricter)')
        .choices(LANGUAGE_SAFETY_TIERS)
        .default('general'),
    )
    .action(languageSafetyCheckCommand);

  program
    .command('notifications')
    .description('the in-app notification inbox')
    .command('dispatch')
    .description(
      'raise one notification through dispatch (catalog, payload, render, recipient, language safety, insert)',
    )
    .requiredOption('--kind <kind>', 'a kind of the catalog')
    .requiredOption('--recipient <userId>', 'the recipient user id (never a student)')
    .requiredOption('--payload <file>', 'a JSON file with the kind’s payload')
    .option('--source-type <type>', 'sourceEntityType (training kinds derive it)')
    .option('--source-id <id>', 'sourceEntityId')
    .action(notificationsDispatchCommand);

  const events = program.command('events').description('raw event streams, as NDJSON, for auditors');
  events
    .command('read <stream>')
    .description('one stream in order')
    .option('--from <version>', 'first stream version (1-based)', '1')
    .option('--limit <n>', 'at most n events')
    .action(eventsReadCommand);
  events
    .command('tail')
    .description('the whole log in commit order')
    .option('--after <checkpoint>', 'start after this checkpoint')
    .option('--type <type...>', 'only these event types')
    .option('--limit <n>', 'stop after n events')
    .option('--from <iso>', 'recorded at or after this instant')
    .option('--to <iso>', 'recorded before this instant')
    .option('--category <category>', 'only streams of this category (e.g. xp, mastery, decision)')
    .option('--org <id>', "only this organization's streams")
    .option('-f, --follow', 'keep waiting for new events')
    .action(eventsTailCommand);
  events
    .command('streams')
    .description('every stream about a student (the index the append keeps), one JSON object per line')
    .requiredOption('--student <id>', 'the student user id')
    .option('--org <id>', "only this organization's streams")
    .action(eventsStreamsCommand);
  events
    .command('get <eventId>')
    .description('one event, the event that caused it and the events it caused')
    .option('--org <id>', "only within this organization's streams")
    .action(eventsGetCommand);
  events
    .command('verify')
    .description(
      'recompute the hash chain; exit 1 naming the first broken event (a whole clean run records a checkpoint)',
    )
    .option('--org <id>', "only this organization's streams")
    .option('--since <position>', 'only the events after this position (as `events tail` prints it)')
    .action(eventsVerifyCommand);

  program
    .command('clusters')
    .description('clusters of students for bulk support activation')
    .command('min-size')
    .description('a school’s minimum cluster size: 3 to 5, or default (2)')
    .requiredOption('--school <id>', 'the school')
    .requiredOption('--size <n>', '3, 4, 5 or default')
    .action(clustersMinSizeCommand);

  program
    .command('roster')
    .description('rosters from a student information system (docs/roster-import.md)')
    .command('import <path>')
    .description('import a OneRoster 1.2 CSV set (a folder or a .zip) or the simple CSV; a report per school and row')
    .option('--dry-run', 'report only; nothing is written')
    .option('--deactivate-missing', 'deactivate the children of the covered schools that the file no longer names')
    .option('--org <id>', 'the organization (default: the only one)')
    .option('--academic-year <year>', "OneRoster classes' academic year, e.g. 2026-2027 (default: today's)")
    .option('--json', 'print the report as JSON')
    .action(rosterImportCommand);

  program
    .command('seed-demo')
    .description('on an empty database: a demo organization (JO) with a school, classes and a user of every persona')
    .action(seedDemoCommand);

  program
    .command('openapi')
    .description('print the OpenAPI document generated from the route schemas')
    .option('--out <file>', 'write it to a file instead')
    .action(openapiCommand);
  return program;
}
