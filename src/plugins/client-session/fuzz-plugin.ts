// The client-session example's part in `contracts fuzz` (src/fuzz/fuzz-plugin.ts): its documented clientToken query
// parameter carries a credential of the config, so the run binds it rather than generating it; the embedded mock
// and sandbox need only some X-API-KEY, so a placeholder goes there when the config feeds none.
import type { FuzzPlugin } from '../../fuzz/fuzz-plugin.js';
import { placeholderApiKey } from '../../fuzz/request-binding.js';

export const clientSessionFuzz: FuzzPlugin = {
  isBound: (param) => param.name === 'clientToken',
  placeholder: { header: 'X-API-KEY', value: placeholderApiKey },
};
