// A table the contract states on an enum (`x-labels`, `x-manual-transitions`) is read whole or not at all: the
// server must not start with a status that has no label or a move to a status the enum does not have.
import { describe, expect, it } from 'vitest';
import { ContractDocument, type Json } from '../../lib/contract.ts';
import { enumTableOf, isText } from './contract.ts';

const VALUES = ['OPEN', 'CLOSED'] as const;

/** A contract whose `Status` schema carries `x-labels: table`. */
const contractWith = (table: Json | undefined) =>
  new ContractDocument({
    components: {
      schemas: { Status: { type: 'string', enum: [...VALUES], ...(table === undefined ? {} : { 'x-labels': table }) } },
    },
  });

describe('enumTableOf', () => {
  it('answers the table of a schema that has an entry for each value of its enum', () => {
    expect(
      enumTableOf(contractWith({ OPEN: 'Aberto', CLOSED: 'Fechado' }), 'Status', 'x-labels', VALUES, isText),
    ).toEqual({
      OPEN: 'Aberto',
      CLOSED: 'Fechado',
    });
  });

  it.for([
    ['a value without an entry', { OPEN: 'Aberto' }, 'CLOSED'],
    ['an entry of the wrong kind', { OPEN: 'Aberto', CLOSED: 3 }, 'CLOSED'],
    ['an entry for a value the enum does not have', { OPEN: 'Aberto', CLOSED: 'Fechado', LOST: 'Perdido' }, 'LOST'],
  ] as [string, Json | undefined, string][])('throws, naming what is wrong, for %s', ([, table, named]) => {
    expect(() => enumTableOf(contractWith(table), 'Status', 'x-labels', VALUES, isText)).toThrow(
      `the contract's Status x-labels must hold an entry for each of OPEN, CLOSED and no other (wrong or missing: ${named})`,
    );
  });

  it.for([
    ['no table', 'Status', undefined],
    ['a table that is not an object', 'Status', ['Aberto', 'Fechado']],
    ['a schema the contract does not have', 'Missing', { OPEN: 'Aberto', CLOSED: 'Fechado' }],
  ] as [string, string, Json | undefined][])('throws for %s', ([, schema, table]) => {
    expect(() => enumTableOf(contractWith(table), schema, 'x-labels', VALUES, isText)).toThrow(
      `the contract's ${schema} has no x-labels table`,
    );
  });
});
