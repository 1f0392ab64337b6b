// The receiver's contract when its caller gives none (the library's startReceiver without `spec`, the example
// plug-ins' check and fuzz runs): the webhooks of the package's own project, the API its config gives a
// `webhooks:` block, held to that block's convention (event header, signature schemes).
import { seedProject } from '../config/seed-project.js';
import { specPath } from '../config/project.js';
import { webhooksApi } from '../config/webhooks-api.js';
import { compileDeliveryContract, type DeliveryContract } from '../core/delivery/index.js';
import { loadSpec } from '../core/load-spec.js';

/** Compiled anew on each call, as a contract given by a caller would be: receivers share no state. */
export async function seedDeliveryContract(): Promise<DeliveryContract> {
  const api = webhooksApi(seedProject);
  return compileDeliveryContract(await loadSpec(specPath(api)), api.webhooks);
}
