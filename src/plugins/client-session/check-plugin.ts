// client-session's part of `contracts check`: its sequence (the retrieve, then the two refusals) and the X-API-KEY
// placeholder the mock and the sandbox accept.
import type { CheckPlugin } from '../../runner/check-plugin.js';
import { placeholderApiKey, runClientSession } from './check-sequence.js';
import { seedBehaviour } from '../seed-rules.js';

export const clientSessionCheck: CheckPlugin = {
  behaviour: seedBehaviour('client-session'),
  placeholder: { header: 'X-API-KEY', value: placeholderApiKey },
  prepare: async () => ({ run: runClientSession }),
};
