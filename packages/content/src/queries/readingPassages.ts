import type { AnySql } from '@qiraa/db';

/** What an oral reading needs of a passage: its place, grade, status and the words a teacher marks. */
export interface ReadingPassage {
  id: string;
  /** null: global content. */
  organizationId: string | null;
  externalId: string;
  version: number;
  grade: number;
  status: 'pending_review' | 'operational' | 'retired' | 'declined';
  titleAr: string;
  /** The passage's words as the import counted them (split on white space); index 0 is the first word. */
  words: string[];
  wordCount: number;
}

/** One passage version by id (null when unknown); the caller checks scope and status. */
export async function readingPassage(sql: AnySql, id: string): Promise<ReadingPassage | null> {
  const [row] = await sql<
    {
      id: string;
      organization_id: string | null;
      external_id: string;
      version: number;
      grade: number;
      status: ReadingPassage['status'];
      title_ar: string;
      body_ar: string;
      word_count: number;
    }[]
  >`
    select id, organization_id, external_id, version, grade, status, title_ar, body_ar, word_count
    from content_passages where id = ${id}`;
  if (!row) return null;
  return {
    id: row.id,
    organizationId: row.organization_id,
    externalId: row.external_id,
    version: row.version,
    grade: row.grade,
    status: row.status,
    titleAr: row.title_ar,
    // The same split as the import's word count (contentHashes.wordCountOf), so indexes agree with word_count.
    words: row.body_ar.trim().split(/\s+/u).filter(Boolean),
    wordCount: row.word_count,
  };
}
