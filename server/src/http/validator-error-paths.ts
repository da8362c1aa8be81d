import type { ErrorObject } from 'ajv';
import { placedErrors } from '../../../lib/ajv-errors.ts';
import { requireFromValidator } from './validator-internals.ts';

/** An error item as express-openapi-validator reports it (`errors` of its 400), read by error-handler.ts. */
interface ValidatorItem {
  path: string;
  message: string | undefined;
  errorCode: string;
}

/** ajv's errors as the validator's items, placed as lib/ajv-errors.ts places them. */
function itemsOf(errors: ErrorObject[]): ValidatorItem[] {
  return placedErrors(errors).map(({ error, pointer }) => ({
    path: pointer,
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
