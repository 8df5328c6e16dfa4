import { randomUUID } from 'node:crypto';
import { type AnySql, inTransaction, type Sql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import { type Caller, holds, studentReach } from '@qiraa/identity';
import { type GroupRow, ownedGroup } from '../queries/groupScope';

export interface SupportGroupView {
  groupId: string;
  nameAr: string;
  ownerUserId: number;
  studentIds: number[];
  createdAt: string;
}

/** Only a teacher builds support groups, and only of children they teach (another organization's child is 404). */
async function checkMembers(sql: AnySql, caller: Caller, studentIds: readonly number[]): Promise<void> {
  // Tenant first: every child is looked up (404) before any refusal (403).
  const reached = [];
  for (const id of studentIds) reached.push(await studentReach(sql, caller, id));
  if (!holds(caller, 'VIEW_OWN_CLASSES')) throw permissionDenied('support groups are a teacher’s');
  if (reached.some((r) => r.reach !== 'teacher')) {
    throw permissionDenied('a support group holds only children the teacher teaches');
  }
}

export async function groupView(sql: AnySql, group: GroupRow): Promise<SupportGroupView> {
  const members = await sql<{ student_user_id: string }[]>`
    select student_user_id::text from trn_support_group_members where group_id = ${group.id} order by student_user_id`;
  return {
    groupId: group.id,
    nameAr: group.name_ar,
    ownerUserId: Number(group.owner_user_id),
    studentIds: members.map((m) => Number(m.student_user_id)),
    createdAt: group.created_at.toISOString(),
  };
}

export async function createGroup(
  sql: Sql,
  caller: Caller,
  body: { nameAr: string; studentIds: number[] },
): Promise<SupportGroupView> {
  await checkMembers(sql, caller, body.studentIds);
  const group = await inTransaction(sql, async ({ sql: tx }) => {
    const [row] = await tx<GroupRow[]>`
      insert into trn_support_groups (id, organization_id, owner_user_id, name_ar)
      values (${randomUUID()}, ${caller.organizationId}, ${caller.userId}, ${body.nameAr})
      returning id, organization_id, owner_user_id::text, name_ar, created_at`;
    await tx`insert into trn_support_group_members (group_id, student_user_id)
             select ${row!.id}, unnest(${body.studentIds}::bigint[])`;
    return row!;
  });
  return groupView(sql, group);
}

/** Replaces the members (the group's owner only). */
export async function setGroupMembers(
  sql: Sql,
  caller: Caller,
  groupId: string,
  studentIds: number[],
): Promise<SupportGroupView> {
  const group = await ownedGroup(sql, caller, groupId);
  await checkMembers(sql, caller, studentIds);
  await inTransaction(sql, async ({ sql: tx }) => {
    await tx`delete from trn_support_group_members where group_id = ${groupId}`;
    await tx`insert into trn_support_group_members (group_id, student_user_id)
             select ${groupId}, unnest(${studentIds}::bigint[])`;
  });
  return groupView(sql, group);
}

/** Archives the group (the owner only): it leaves every list and scope; its alerts stay with the children. */
export async function archiveGroup(sql: AnySql, caller: Caller, groupId: string): Promise<void> {
  await ownedGroup(sql, caller, groupId);
  await sql`update trn_support_groups set archived_at = now() where id = ${groupId} and archived_at is null`;
}

export async function groupsOwnedBy(sql: AnySql, caller: Caller): Promise<SupportGroupView[]> {
  const rows = await sql<GroupRow[]>`
    select id, organization_id, owner_user_id::text, name_ar, created_at from trn_support_groups
    where owner_user_id = ${caller.userId} and archived_at is null order by created_at, id`;
  return Promise.all(rows.map((g) => groupView(sql, g)));
}
