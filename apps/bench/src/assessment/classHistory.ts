import type { Sql } from '@qiraa/db';
import { call } from '../gamification/api';

interface TeacherWordList {
  id: string;
  cell: string | null;
  wordCount: number;
  timing: { timed: boolean; durationSeconds: number | null };
}

/**
 * The oral side of a class's full history: for every student an oral reading of a passage of the class's
 * grade (started, two marks, stopped) and a read of each word-list cell, all through the teacher's API; then
 * one oral reading voided, so the page shows a restart.
 */
export async function oralHistory(
  sql: Sql,
  baseUrl: string,
  teacherToken: string,
  classId: string,
  studentIds: readonly number[],
): Promise<{ oralReadings: number; wordListReads: number; voids: number }> {
  const [cls] = await sql<{ grade: number }[]>`select grade from classes where id = ${classId}`;
  const [passage] = await sql<{ id: string }[]>`
    select id from content_passages where grade = ${cls!.grade} and status = 'operational' order by id limit 1`;
  if (!passage) throw new Error(`no operational passage for grade ${cls!.grade}`);
  let oralReadings = 0;
  let wordListReads = 0;
  let firstOral: string | null = null;
  for (const studentId of studentIds) {
    const orf = await call<{ id: string; wordCount: number }>(baseUrl, 'POST', '/api/orf/assessments', {
      token: teacherToken,
      body: { studentId, passageId: passage.id },
      expect: [201],
    });
    firstOral ??= orf.id;
    for (const wordIndex of [2, 5]) {
      await call(baseUrl, 'POST', `/api/orf/assessments/${orf.id}/mark`, {
        token: teacherToken,
        body: { wordIndex, mark: 'error' },
      });
    }
    await call(baseUrl, 'POST', `/api/orf/assessments/${orf.id}/stop`, {
      token: teacherToken,
      body: { lastWordIndex: Math.min(orf.wordCount - 1, 15 + (studentId % 10)), elapsedSeconds: 60 },
    });
    oralReadings += 1;

    const { lists } = await call<{ lists: TeacherWordList[] }>(
      baseUrl,
      'GET',
      `/api/word-lists?studentId=${studentId}`,
      {
        token: teacherToken,
      },
    );
    for (const cell of ['oral_familiar_words', 'oral_pseudowords']) {
      const list = lists.find((l) => l.cell === cell);
      if (!list) continue;
      const body: Record<string, unknown> = { studentId, wordListId: list.id, errorIndices: [1] };
      if (list.timing.timed) {
        body.last_word_index = Math.min(list.wordCount - 1, 8 + (studentId % 5));
        body.elapsed_seconds = Math.min(list.timing.durationSeconds ?? 60, 45);
      }
      await call(baseUrl, 'POST', '/api/word-lists/assessments', { token: teacherToken, body, expect: [200, 201] });
      wordListReads += 1;
    }
  }
  let voids = 0;
  if (firstOral) {
    await call(baseUrl, 'POST', `/api/teacher/classes/${classId}/taqyeem/void`, {
      token: teacherToken,
      body: { kind: 'oral_text', targetId: firstOral, reason: 'technical_interruption' },
      expect: [201],
    });
    voids = 1;
  }
  return { oralReadings, wordListReads, voids };
}
