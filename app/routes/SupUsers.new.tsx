/** /SupUsers/new: invite a user (the same page as /SupUsers/{uid}; this file wins over the generic /{screen}/new). */
export { loader, action, meta, default } from './SupUsers.$uid'
