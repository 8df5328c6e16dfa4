import { describe, expect, it } from 'vitest';
import { NUL_ISSUE, SURROGATE_ISSUE, unstorableTextErrors } from './unstorableText';
import { validationDetails } from './validationDetails';
import { boundIntegers, closeObjects, compileBodyValidator, validatorCompiler } from './validatorCompiler';

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

describe('boundIntegers', () => {
  it('keeps every integer a schema leaves unbounded within ±Number.MAX_SAFE_INTEGER, and declared bounds as they are', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'integer', minimum: 1 },
        delta: { type: 'integer' },
        limit: { type: 'integer', minimum: 1, maximum: 100 },
        ids: { type: 'array', items: { type: ['integer', 'null'], exclusiveMinimum: 0 } },
      },
    };
    const bounded = boundIntegers(schema) as { properties: Record<string, Record<string, unknown>> };
    const { id, delta, limit, ids } = bounded.properties;
    expect(id).toEqual({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    expect(delta).toEqual({ type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
    expect(limit).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
    expect(ids?.items).toEqual({ type: ['integer', 'null'], exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER });
    expect(schema.properties.id).toEqual({ type: 'integer', minimum: 1 }); // the route's own schema is left as it was
  });

  it('refuses an id too large for a bigint column as a validation detail', () => {
    const validate = compileBodyValidator({ type: 'object', properties: { id: { type: 'integer', minimum: 1 } } });
    expect(validate({ id: 1e20 })).toEqual({
      ok: false,
      details: [{ field: 'id', issue: `must be <= ${Number.MAX_SAFE_INTEGER}` }],
    });
    expect(validate({ id: Number.MAX_SAFE_INTEGER })).toEqual({ ok: true });
  });
});

describe('text PostgreSQL cannot store (NUL, lone surrogates)', () => {
  it('is found in strings and keys at any depth, with the path of each', () => {
    expect(
      unstorableTextErrors({
        name: 'a\u0000b',
        list: ['ok', 'x\u0000'],
        nested: { 'k\u0000': 'v' },
        half: 'x\ud800',
        n: 1,
      }).map((e) => [e.instancePath, e.message]),
    ).toEqual([
      ['/name', NUL_ISSUE],
      ['/list/1', NUL_ISSUE],
      ['/nested/k\\u0000', NUL_ISSUE],
      ['/half', SURROGATE_ISSUE],
    ]);
    expect(unstorableTextErrors('\u0000')).toHaveLength(1);
    expect(unstorableTextErrors({ name: 'عربي 😀', n: null })).toEqual([]);
  });

  it('are refused by every validator, even where the schema allows any string or any value', () => {
    const validate = compileBodyValidator({
      type: 'object',
      properties: { name: { type: 'string', minLength: 2 }, meta: { type: 'object', additionalProperties: true } },
    });
    expect(validate({ name: 'x\u0000', meta: { note: '\u0000' } })).toEqual({
      ok: false,
      details: [
        { field: 'name', issue: NUL_ISSUE },
        { field: 'meta.note', issue: NUL_ISSUE },
      ],
    });
    expect(validate({ name: '\u0000' })).toEqual({
      ok: false,
      details: [
        { field: 'name', issue: 'must NOT have fewer than 2 characters' },
        { field: 'name', issue: NUL_ISSUE },
      ],
    });
  });

  it('are refused in query and path text too', () => {
    const validate = validatorCompiler({
      schema: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } } },
      httpPart: 'params',
      method: 'GET',
      url: '/items/:id',
    });
    expect(validate({ id: '\u0000' })).toBe(false);
    expect(validationDetails(validate.errors ?? [])).toEqual([{ field: 'id', issue: NUL_ISSUE }]);
    expect(validate({ id: 'item-1' })).toBe(true);
  });
});

describe('deeply nested bodies', () => {
  it('refuses nesting past the limit as a field error instead of overflowing the stack', async () => {
    const { unstorableTextErrors, MAX_NESTING, NESTING_ISSUE } = await import('./unstorableText');
    let deep: unknown = 'leaf';
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    const errors = unstorableTextErrors(deep);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe(NESTING_ISSUE);
    expect(errors[0]!.instancePath.split('/').length - 1).toBe(MAX_NESTING);
    let fine: unknown = 'x\u0000';
    for (let i = 0; i < MAX_NESTING - 1; i++) fine = [fine];
    expect(unstorableTextErrors(fine).map((e) => e.message)).toEqual(['must not contain a NUL character (U+0000)']);
  });
});
