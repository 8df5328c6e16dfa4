import type { Gendered } from '@qiraa/identity';

/** The parent PDF's fixed texts (docs/parent-portal.md, "The parent PDF"); each passes the parent tier. */
export const PDF_TITLE = 'تقرير النموّ في القراءة';
export const PDF_HEADINGS = {
  growth: 'مجالات القراءة هذا العام',
  measures: 'المهارات في آخر تقييم',
  home: 'أفكار للبيت',
  empty: 'لم تكتمل الصورة بعد، وسنشارككم بها بعد التقييم القادم.',
} as const;
export const PDF_CLOSING: Gendered = {
  male: 'شكرًا لمرافقتكم طفلكم في رحلة القراءة؛ كل دقيقة تقضونها معه في القراءة تصنع فرقًا.',
  female: 'شكرًا لمرافقتكم طفلتكم في رحلة القراءة؛ كل دقيقة تقضونها معها في القراءة تصنع فرقًا.',
  neutral: 'شكرًا لمرافقتكم في رحلة القراءة؛ كل دقيقة تقضونها معًا في القراءة تصنع فرقًا.',
};
