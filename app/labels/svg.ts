/**
 * A label as SVG, for the browser's preview: the label's size in inches, drawn in printer dots
 * (viewBox), white background, the same items the ZPL and PDF have. Text is XML-escaped; the
 * route serves it with a sandboxing CSP as well.
 */
import { darkRuns } from './qr'
import type { Label, LabelItem } from './layout'

export const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

function item(i: LabelItem): string {
  if (i.kind === 'text') {
    return `<text x="${i.x}" y="${Math.round(i.y + i.size * 0.78)}" font-size="${i.size}"${i.bold ? ' font-weight="bold"' : ''}>${xmlEscape(i.text)}</text>`
  }
  const d: string[] = []
  if (i.kind === 'barcode') {
    let x = 0
    i.code.widths.forEach((w, n) => {
      if (n % 2 === 0) d.push(`M${i.x + x * i.module} ${i.y}h${w * i.module}v${i.height}h${-w * i.module}z`)
      x += w
    })
    return `<path data-barcode="${xmlEscape(i.code.text)}" d="${d.join('')}"/>`
  }
  i.matrix.dark.forEach((row, r) => {
    for (const [c, len] of darkRuns(row)) d.push(`M${i.x + c * i.module} ${i.y + r * i.module}h${len * i.module}v${i.module}h${-len * i.module}z`)
  })
  return `<path data-qr="${xmlEscape(i.data)}" d="${d.join('')}"/>`
}

export function renderSvg(label: Label): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${label.widthIn}in" height="${label.heightIn}in" viewBox="0 0 ${label.width} ${label.height}" role="img" aria-label="${xmlEscape(label.name)}">`,
    `<title>${xmlEscape(label.name)}</title>`,
    `<rect width="${label.width}" height="${label.height}" fill="#fff" stroke="#999" stroke-width="1"/>`,
    `<g fill="#000" font-family="Helvetica, Arial, sans-serif">`,
    ...label.items.map(item),
    '</g>',
    '</svg>',
    '',
  ].join('\n')
}
