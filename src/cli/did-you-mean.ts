// "Did you mean …?" lives in core/did-you-mean.ts, so the config reader can name the nearest known lint rule too.
export * from '../core/did-you-mean.js';
