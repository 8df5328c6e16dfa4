import type { ImportBodyInput } from '../schemas/importBody';
import { planForm } from './planForm';
import { planItems } from './planItems';
import { type PassagePlan, planPassages } from './planPassages';
import { planPrompts } from './planPrompts';
import type { ImportPlan, PlanContext } from './planTypes';
import { planWordLists } from './planWordLists';
import { prepareItems } from './prepareItems';

const EMPTY_PASSAGES: PassagePlan = {
  rows: [],
  inserts: [],
  idByExternalId: new Map(),
  rejectedExternalIds: new Set(),
};

/** Decides every row of the batch (reads only); storeImport writes the outcome. */
export async function planImport(ctx: PlanContext, body: ImportBodyInput): Promise<ImportPlan> {
  const plan: ImportPlan = {
    rows: [],
    passages: [],
    form: null,
    items: [],
    prompts: [],
    wordLists: [],
    formProblems: null,
    screeningFormId: null,
    formRejected: null,
  };
  if (ctx.kind === 'scaffold_prompt') {
    const prompts = await planPrompts(ctx, body.scaffoldPrompts ?? []);
    return { ...plan, rows: prompts.rows, prompts: prompts.inserts };
  }
  if (ctx.kind === 'word_list') {
    const lists = await planWordLists(ctx, body.wordLists ?? []);
    return { ...plan, rows: lists.rows, wordLists: lists.inserts };
  }
  const passages = body.passages?.length ? await planPassages(ctx, body.passages) : EMPTY_PASSAGES;
  const prepared = await prepareItems(ctx, body.items ?? [], passages, body.form ?? null);
  if (ctx.kind === 'screening_form' && body.form) {
    const form = await planForm(ctx, body.form, prepared, passages);
    return { ...plan, ...form };
  }
  const items = await planItems(ctx, prepared);
  return { ...plan, rows: [...passages.rows, ...items.rows], passages: passages.inserts, items: items.inserts };
}
