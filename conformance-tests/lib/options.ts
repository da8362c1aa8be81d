// What a run is told (options) and what a target can do (capabilities), by profile.
export type Capability = 'state' | 'auth' | 'details' | 'admin' | 'rateLimit' | 'preferCode' | 'emptyQuery';
export type Profile = 'server' | 'mock';

export const PROFILE_CAPABILITIES: Record<Profile, Capability[]> = {
  server: ['state', 'auth', 'details', 'emptyQuery'],
  mock: ['preferCode', 'details'],
};

export interface Options {
  baseUrl: string;
  apiKey?: string;
  storeId?: string;
  adminToken?: string;
  profile?: Profile;
  rateLimitMax?: number;
  rateLimitWindowSeconds?: number;
  only?: string[];
  concurrency?: number;
  /** Known defects of the target: a failure whose `operationId — rule` starts with one of these is reported as skipped. */
  knownFailures?: string[];
  /** Receives a line as each operation's checks and each tier end (default: nothing). */
  progress?: (line: string) => void;
}
