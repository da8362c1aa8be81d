// Local Redocly plugin for the Storefront contract: project rules (lint) and
// docs-only decorators. Loaded by path from redocly.yaml; nothing is fetched.
import operationIds from './decorators/operation-ids.js';
import provenanceBadges from './decorators/provenance-badges.js';
import examplePostmanSafe from './rules/example-postman-safe.js';
import operationProvenance from './rules/operation-provenance.js';
import operationRateLimited from './rules/operation-rate-limited.js';
import operationScope from './rules/operation-scope.js';
import operationTags from './rules/operation-tags.js';
import responseRateLimit from './rules/response-rate-limit.js';
import responseRequestId from './rules/response-request-id.js';
import schemaProvenance from './rules/schema-provenance.js';

export default function storefrontPlugin() {
  return {
    id: 'storefront',
    rules: {
      oas3: {
        'operation-tags': operationTags,
        'operation-provenance': operationProvenance,
        'operation-scope': operationScope,
        'operation-rate-limited': operationRateLimited,
        'schema-provenance': schemaProvenance,
        'response-request-id': responseRequestId,
        'response-rate-limit': responseRateLimit,
        'example-postman-safe': examplePostmanSafe,
      },
    },
    decorators: {
      oas3: {
        'provenance-badges': provenanceBadges,
        'operation-ids': operationIds,
      },
    },
  };
}
