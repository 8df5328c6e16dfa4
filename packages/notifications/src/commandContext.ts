import { defineCommandContext } from '@qiraa/command-kit';
import { notificationsInboxProjection } from './projections/inboxProjection';

/**
 * Notifications' write side: the inbox its commands keep up to date in their own transaction (`handleCommand`
 * applies it to what the append wrote), so a read right after a dispatch or a mark sees it.
 */
export const notificationsCommands = defineCommandContext({
  name: 'notifications',
  inline: [notificationsInboxProjection],
});
