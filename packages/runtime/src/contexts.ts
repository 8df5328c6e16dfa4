import { assessmentContext } from '@qiraa/assessment';
import { auditContext } from '@qiraa/audit';
import { auditingContext } from '@qiraa/auditing';
import { clustersContext } from '@qiraa/clusters';
import { contentContext } from '@qiraa/content';
import { decisionsContext } from '@qiraa/decisions';
import { gamificationContext } from '@qiraa/gamification';
import { identityContext } from '@qiraa/identity';
import type { BoundedContext, Schedule } from '@qiraa/kernel';
import { notificationsContext } from '@qiraa/notifications';
import { parentPortalContext } from '@qiraa/parent-portal';
import type { Projection, Reaction } from '@qiraa/projections';
import { reportsContext } from '@qiraa/reports';
import { sessionsContext } from '@qiraa/sessions';
import { trainingContext } from '@qiraa/training';

/** Every bounded context the apps compose, in registration order. A new context is one line here. */
export const contexts: readonly BoundedContext[] = [
  identityContext,
  auditContext,
  gamificationContext,
  notificationsContext,
  contentContext,
  assessmentContext,
  decisionsContext,
  reportsContext,
  sessionsContext,
  trainingContext,
  parentPortalContext,
  clustersContext,
  auditingContext,
];

export const allProjections = (list: readonly BoundedContext[] = contexts): Projection[] =>
  list.flatMap((c) => c.projections);

export const allSchedules = (list: readonly BoundedContext[] = contexts): Schedule[] =>
  list.flatMap((c) => c.schedules ?? []);
export const allReactions = (list: readonly BoundedContext[] = contexts): Reaction[] =>
  list.flatMap((c) => c.reactions ?? []);
