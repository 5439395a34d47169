/** @kosh/platform test support: what the other packages import from it. */
export { type Outcome, p, startLoad } from '../faults/load';
export { startStack } from '../faults/stack';
export { type SmtpPeer, startSmtpPeer } from './smtp-peer';
