/** /DisplayHTML.pdf?{props}: the document /DisplayHTML shows, as a PDF (app/areas/documents; a thin route, decision 022). */
export { displayPdfLoader as loader } from '../areas/documents/display.server'
