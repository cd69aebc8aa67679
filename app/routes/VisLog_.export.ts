/** /VisLog/export: the visitor log of a date range as CSV or PDF, or the evacuation list as PDF (a resource route; app/areas/visitors). */
export { exportLoader as loader } from '../areas/visitors/routes.server'
