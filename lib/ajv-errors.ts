import type { ErrorObject } from 'ajv';
import { escapePointer } from './contract.ts';
import { pointerSegmentName } from './json-pointer.ts';
import { withoutNullAlternatives } from './null-alternatives.ts';

/** One of ajv's errors at its place: a JSON pointer, the names it holds, and those as a dotted path. */
export interface PlacedError {
  error: ErrorObject;
  pointer: string;
  segments: string[];
  path: string;
  keyword: string;
  nullAlternative: boolean;
}

/** The property an error names beside its place: a missing one, or one the schema does not allow. */
function namedProperty({ params }: ErrorObject): string | undefined {
  const named = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
  return typeof named === 'string' ? named : undefined;
}

/**
 * An `if` that held while its `then` failed (or failed while its `else` did): the branch's own errors name what is
 * wrong (`logistics` required for a PHYSICAL product), and this one only the object they are in.
 */
export const isConditionalSummary = (keyword: string) => keyword === 'if';

/**
 * ajv's errors at their places, the property an error names escaped into its pointer (a webhook header `a/b` is
 * one segment; a property named `""` an empty one), a nullable field's failure named once (null-alternatives.ts)
 * and a conditional's summary left out (`isConditionalSummary`): how the server's validator and the mock's own
 * checks place a detail.
 */
export function placedErrors(errors: readonly ErrorObject[]): PlacedError[] {
  return withoutNullAlternatives(
    errors
      .filter((error) => !isConditionalSummary(error.keyword))
      .map((error) => {
        const named = namedProperty(error);
        const pointer = named === undefined ? error.instancePath : `${error.instancePath}/${escapePointer(named)}`;
        const segments = pointer.split('/').slice(1).map(pointerSegmentName);
        return {
          error,
          pointer,
          segments,
          path: segments.join('.'),
          keyword: error.keyword,
          nullAlternative:
            error.keyword === 'type' &&
            error.params.type === 'null' &&
            /\/(oneOf|anyOf)\/\d+\/type$/.test(error.schemaPath),
        };
      }),
  );
}
