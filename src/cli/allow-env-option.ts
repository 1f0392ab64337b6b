// --allow-env: the user's own word that a config may send a variable outside contracts-kit's namespace for its API
// (CONTRACTS_<API>_…) as a credential
// (src/config/credential-variables.ts). Shared by the commands that send credentials (check, fuzz).
import type { OptionSpec } from './command.js';

export const allowEnvOption: OptionSpec = {
  name: 'allow-env',
  type: 'string',
  valueName: 'NAME[,NAME]',
  multiple: true,
  description:
    "Let the config send this environment variable as a credential, although it lies outside contracts-kit's namespace for the API (CONTRACTS_<API>_…)",
};
