/** /PolDocs/{id}/signatures.csv: who has and has not acknowledged a policy, as CSV for an inspection (a resource route; app/areas/documents). */
export { signaturesCsvLoader as loader } from '../areas/documents/policy-routes.server'
