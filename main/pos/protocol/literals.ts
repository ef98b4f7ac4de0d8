/**
 * A union of string literals from a list of values, typed as the union (TypeBox cannot infer a
 * union from a mapped array: its Static would be `never`).
 */
import { Type, type TSchemaOptions, type TUnsafe } from 'typebox';

export const Literals = <const T extends readonly string[]>(
  values: T,
  options: TSchemaOptions = {},
): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>(
    Type.Union(
      values.map((value) => Type.Literal(value)),
      options,
    ),
  );
