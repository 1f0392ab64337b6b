// The behavioural checks: pure functions over what a sequence of calls observed. The runner makes the calls.
export { addEvents } from './add-events.js';
export { deletedHook404 } from './deleted-hook-404.js';
export { eventsDefaultPush } from './events-default-push.js';
export { eventsReplace } from './events-replace.js';
export { perPageCapped, perPageRespected } from './per-page.js';
export { redeliveryFlag } from './redelivery-flag.js';
export { removeEvents } from './remove-events.js';
export { requestRefused } from './request-refused.js';
export { secretMasked } from './secret-masked.js';
