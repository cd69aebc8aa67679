// Renders public/favicon.svg into the PNG icons the web app manifest lists (installers want
// 192 and 512 px PNGs; "maskable" ones keep the leaf inside the safe zone). Run once after the
// logo changes: node scripts/make-icons.mjs (uses Debian's Chromium, as the tests do).
import fs from 'node:fs'
import { chromium } from 'playwright-core'

const svg = fs.readFileSync('public/favicon.svg', 'utf8')
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
const page = await browser.newPage()
for (const [size, maskable] of [[192, false], [512, false], [512, true]]) {
  await page.setViewportSize({ width: size, height: size })
  // maskable: a full-bleed background with the logo at 80 % (the safe zone)
  const inner = maskable ? `<div style="width:100%;height:100%;background:#14532d;display:grid;place-items:center"><div style="width:80%;height:80%">${svg}</div></div>` : svg
  await page.setContent(`<style>html,body{margin:0;background:transparent}svg{width:100%;height:100%;display:block}</style>${inner}`)
  const file = `public/icons/icon-${size}${maskable ? '-maskable' : ''}.png`
  await page.screenshot({ path: file, omitBackground: !maskable })
  console.log(file, fs.statSync(file).size, 'bytes')
}
await browser.close()
