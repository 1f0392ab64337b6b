// --allow-env: the user's own word that a config may send a variable without its API's prefix as a credential
// (src/config/credential-variables.ts). Shared by the commands that send credentials (check, fuzz).
import type { OptionSpec } from './command.js';

export const allowEnvOption: OptionSpec = {
  name: 'allow-env',
  type: 'string',
  valueName: 'NAME[,NAME]',
  multiple: true,
  description:
    "Let the config send this environment variable as a credential although it lacks the API's prefix (API_NAME_…)",
};
