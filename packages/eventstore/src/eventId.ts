import { v4 as uuidv4, v5 as uuidv5 } from 'uuid';

// Fixed namespace for qiraa's name-based event ids; never change it or ids stop matching.
const QIRAA_NAMESPACE = '6f1d2c9e-5b1a-4c3e-9a57-2f0f3b9c8a11';

/** The same name always gives the same event id, so a re-sent command stores its events once. */
export function deterministicEventId(...parts: readonly (string | number | bigint)[]): string {
  return uuidv5(parts.map(String).join('\u001f'), QIRAA_NAMESPACE);
}

export function randomEventId(): string {
  return uuidv4();
}
