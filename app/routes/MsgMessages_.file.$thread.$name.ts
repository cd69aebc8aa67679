/** GET /MsgMessages/file/{conversation}/{name}: a message's uploaded file, for the conversation's members (app/areas/messaging; a thin route). */
export { messageFileLoader as loader } from '../areas/messaging/inbox.server'
