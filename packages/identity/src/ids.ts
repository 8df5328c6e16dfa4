import { customAlphabet } from 'nanoid';

const alphanumeric = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 12);
// Class codes are read aloud and typed by children: capitals and digits without 0/O, 1/I/L.
const classCodeAlphabet = customAlphabet('ABCDEFGHJKMNPQRSTUVWXYZ23456789', 8);

export const newOrganizationId = () => `org_${alphanumeric()}`;
export const newSchoolId = () => `sch_${alphanumeric()}`;
export const newClassId = () => `cls_${alphanumeric()}`;
export const newClassCode = () => classCodeAlphabet();
