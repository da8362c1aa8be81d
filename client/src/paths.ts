import type { paths } from '../../generated/openapi-wire.ts';

/** The HTTP methods an OpenAPI path item can hold (the keys openapi-typescript writes). */
type Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** The header the client sets once, for every call. */
type StoreHeader = 'X-Store-Id';

/** An operation's header parameters without the store header; optional as a whole when nothing else is required. */
type HeaderWithoutStore<H> = [Exclude<keyof H, StoreHeader>] extends [never]
  ? { header?: never }
  : Record<never, never> extends Omit<H, StoreHeader>
    ? { header?: Omit<H, StoreHeader> }
    : { header: Omit<H, StoreHeader> };

/** Flattens an intersection so openapi-fetch's key checks see one object type. */
type Flat<T> = { [K in keyof T]: T[K] };

/** An operation as the client offers it: the same, minus the `X-Store-Id` header parameter. */
type WithoutStoreHeader<Operation> = Operation extends { parameters: { header?: infer H } }
  ? Flat<
      Omit<Operation, 'parameters'> & {
        parameters: Flat<Omit<Operation['parameters'], 'header'> & HeaderWithoutStore<NonNullable<H>>>;
      }
    >
  : Operation;

/** Paths a partner calls with an API key: the Storefront API v1 (the admin and checkout APIs have other credentials). */
type PartnerPath = Extract<keyof paths, `/api/v1/${string}`>;

/**
 * The contract's partner paths as the client types them: every operation exactly as `generated/` has it, except
 * that `X-Store-Id` is not a parameter any more (the client sends it on every request).
 */
export type StorefrontPaths = {
  [P in PartnerPath]: {
    [K in keyof paths[P]]: K extends Method ? WithoutStoreHeader<paths[P][K]> : paths[P][K];
  };
};

/** The partner POSTs that take an `Idempotency-Key` header in the contract. */
export type IdempotentPostPath = {
  [P in PartnerPath]: paths[P] extends { post: { parameters: { header?: infer H } } }
    ? 'Idempotency-Key' extends keyof NonNullable<H>
      ? P
      : never
    : never;
}[PartnerPath];

/**
 * The same set at run time. A Record over the type above, so the type checker fails when the contract adds or
 * drops an idempotent POST and this list does not follow.
 */
export const IDEMPOTENT_POSTS: Record<IdempotentPostPath, true> = {
  '/api/v1/products': true,
};

export const isIdempotentPost = (schemaPath: string): boolean => Object.hasOwn(IDEMPOTENT_POSTS, schemaPath);
