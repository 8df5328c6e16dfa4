import type { AnySql } from '@qiraa/db';

/** `(organization_id)`: the organizations whose calendar makes `day` a school holiday; a subquery for other contexts. */
export const holidayOrganizationsQuery = (sql: AnySql, day: string) =>
  sql`select h.organization_id from school_holidays h where h.day = ${day}`;
