/** /Users/new: invite a user (the same page as /Users/{uid}; this file wins over the generic /{screen}/new). */
export { loader, action, meta, default } from './Users.$uid'
