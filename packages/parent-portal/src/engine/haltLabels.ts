import type { Gendered } from '@qiraa/identity';

/**
 * The safe halt of the recommendations (spec GL-005): no active profile assignment for the window, so no
 * suggestion is made. The code travels in the body's `code` (a closed machine key, allow-list leaf `code`, which a
 * client never shows) and in the `x-qiraa-safe-stop` header; the parent tier removes `GL-005` from any text, so the
 * text the parent reads is the Arabic message.
 */
export const SAFE_STOP_CODE = 'GL-005' as const;
export const SAFE_STOP_HEADER = 'x-qiraa-safe-stop';

/** Verbal nouns and the first person plural: the parent's own gender is unknown, the child's is not. */
export const HALT_MESSAGES: Gendered = {
  male: 'ما زلنا نتعرّف على طريقة تعلّم طفلك، وسنشارككم أفكارًا للبيت حين تتّضح الصورة. وإلى ذلك الحين، قراءة قصة قصيرة معه كل يوم بداية جميلة.',
  female:
    'ما زلنا نتعرّف على طريقة تعلّم طفلتك، وسنشارككم أفكارًا للبيت حين تتّضح الصورة. وإلى ذلك الحين، قراءة قصة قصيرة معها كل يوم بداية جميلة.',
  neutral:
    'ما زلنا نتعرّف على طريقة التعلّم، وسنشارككم أفكارًا للبيت حين تتّضح الصورة. وإلى ذلك الحين، قراءة قصة قصيرة معًا كل يوم بداية جميلة.',
};
