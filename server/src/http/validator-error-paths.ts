import type { ErrorObject } from 'ajv';
import { pointerSegmentName } from '../../../lib/json-pointer.ts';
import { withoutNullAlternatives } from '../../../lib/null-alternatives.ts';
import { requireFromValidator } from './validator-internals.ts';

/** An error item as express-openapi-validator reports it (`errors` of its 400), read by error-handler.ts. */
interface ValidatorItem {
  path: string;
  message: string | undefined;
  errorCode: string;
}

/** A JSON pointer's segment for a property name: `~` as `~0`, `/` as `~1` (RFC 6901). */
const pointerSegment = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');

/** The property an error names beside its place: a missing one, or one the schema does not allow. */
function namedProperty({ params }: ErrorObject): string | undefined {
  const named = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
  return typeof named === 'string' ? named : undefined;
}

/** The error's place as a JSON pointer, the property it names (if any) escaped as a segment of it. */
function pointerOf(error: ErrorObject): string {
  const named = namedProperty(error);
  return named === undefined ? error.instancePath : `${error.instancePath}/${pointerSegment(named)}`;
}

/** ajv's errors as the validator's items, a nullable field's failure named once (lib/null-alternatives.ts). */
function itemsOf(errors: ErrorObject[]): ValidatorItem[] {
  const read = errors.map((error) => ({
    error,
    path: pointerOf(error).split('/').slice(1).map(pointerSegmentName).join('.'),
    keyword: error.keyword,
    nullAlternative:
      error.keyword === 'type' && error.params.type === 'null' && /\/(oneOf|anyOf)\/\d+\/type$/.test(error.schemaPath),
  }));
  return withoutNullAlternatives(read).map(({ error }) => ({
    path: pointerOf(error),
    message: error.message,
    errorCode: `${error.keyword}.openapi.validation`,
  }));
}

/**
 * express-openapi-validator turns ajv's errors into its items by joining a named property to the error's JSON
 * pointer unescaped (a webhook header `a/b` read as `a` then `b`) and drops a property named `""` (the item then
 * points at the body itself). Its items here are made from ajv's own errors instead: each place a JSON pointer with
 * the property escaped (error-handler.ts decodes it), and a nullable field's failure named once. Call once, before
 * the validator handles requests.
 */
export function reportErrorPlacesExactly(): void {
  const util = requireFromValidator('./middlewares/util') as {
    ajvErrorsToValidatorError: (status: number, errors: ErrorObject[]) => { status: number; errors: ValidatorItem[] };
  };
  util.ajvErrorsToValidatorError = (status, errors) => ({ status, errors: itemsOf(errors) });
}
