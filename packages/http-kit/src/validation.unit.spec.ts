import { describe, expect, it } from 'vitest';
import { validationDetails } from './validationDetails';
import { closeObjects } from './validatorCompiler';

describe('closeObjects', () => {
  it('closes every object schema that does not decide for itself, at any depth', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'object', properties: { b: { type: 'string' } } },
        open: { type: 'object', properties: {}, additionalProperties: true },
        list: { type: 'array', items: { type: 'object', properties: { c: { type: 'integer' } } } },
      },
    };
    const closed = closeObjects(schema) as typeof schema & { additionalProperties: boolean };
    expect(closed.additionalProperties).toBe(false);
    expect((closed.properties.a as { additionalProperties?: boolean }).additionalProperties).toBe(false);
    expect(closed.properties.open.additionalProperties).toBe(true);
    expect((closed.properties.list.items as { additionalProperties?: boolean }).additionalProperties).toBe(false);
    expect(schema).not.toHaveProperty('additionalProperties'); // the route's own schema is left as it was
  });
});

describe('validationDetails', () => {
  it('names missing, unknown and invalid fields with dotted paths, once each', () => {
    expect(
      validationDetails([
        { keyword: 'required', instancePath: '', params: { missingProperty: 'email' } },
        { keyword: 'additionalProperties', instancePath: '/child', params: { additionalProperty: 'note' } },
        { keyword: 'type', instancePath: '/items/2/grade', message: 'must be integer', params: {} },
        { keyword: 'type', instancePath: '/items/2/grade', message: 'must be integer', params: {} },
        { keyword: 'type', instancePath: '', message: 'must be object', params: {} },
        { keyword: 'discriminator', instancePath: '', params: { error: 'mapping', tag: 'primaryPersona' } },
      ]),
    ).toEqual([
      { field: 'email', issue: 'is required' },
      { field: 'child.note', issue: 'is not allowed' },
      { field: 'items.2.grade', issue: 'must be integer' },
      { field: '(body)', issue: 'must be object' },
      { field: 'primaryPersona', issue: 'is not one of the allowed values' },
    ]);
  });
});
