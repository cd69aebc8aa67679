/**
 * The previous release's build, for the screen check's side-by-side columns (issue 30 "Done when").
 *
 * - Which commit: `--baseline=<ref>` if given; else the latest tag (`git describe --tags --abbrev=0`);
 *   else `HEAD~20` (the repository has no tags yet). Printed with its short hash.
 * - Where: `data/bench-baseline/<hash>` (data/ is git-ignored), a detached `git worktree add` of that
 *   commit. Its node_modules are this checkout's, hard-linked (`cp -al`: no copy, no install), so a
 *   baseline whose package-lock.json differs builds against this checkout's packages; the notes say so.
 * - `npm run build` there, once: a finished build is marked (`.bench-built`) and reused by later runs of
 *   the same commit. A failed build is retried on the next run. One baseline is kept: preparing another
 *   commit's removes the others (`git worktree remove --force`). HEAD~20 moves with every commit, so
 *   `--baseline=<hash>` keeps one fixed.
 * Never throws: a baseline that cannot be prepared comes back as { reason }.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

export type Baseline = { dir: string; ref: string; sha: string; label: string; notes: string[] } | { ref: string; reason: string }

const git = (args: string[], cwd = process.cwd()) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${(r.stderr || r.stdout).trim().slice(-300)}`)
  return r.stdout.trim()
}

/** The ref the baseline is built from, and why that one. */
export function baselineRef(flag: string | undefined): { ref: string; why: string } {
  if (flag) return { ref: flag, why: '--baseline' }
  const tag = spawnSync('git', ['describe', '--tags', '--abbrev=0'], { encoding: 'utf8' })
  if (tag.status === 0 && tag.stdout.trim()) return { ref: tag.stdout.trim(), why: 'the latest tag' }
  return { ref: 'HEAD~20', why: 'no tag in the repository, so HEAD~20 (--baseline=<ref> names another)' }
}

export function prepareBaseline(flag: string | undefined, log: (m: string) => void): Baseline {
  const { ref, why } = baselineRef(flag)
  try {
    const sha = git(['rev-parse', '--verify', `${ref}^{commit}`])
    const short = sha.slice(0, 10)
    const label = `${ref} (${short}, ${why})`
    const dir = path.resolve('data', 'bench-baseline', short)
    const marker = path.join(dir, '.bench-built')
    const notes: string[] = []
    const lockOf = (d: string) => (fs.existsSync(path.join(d, 'package-lock.json')) ? fs.readFileSync(path.join(d, 'package-lock.json'), 'utf8') : '')
    if (!fs.existsSync(marker)) {
      // one baseline is kept: an unfinished one of this commit and those of other commits go
      const parent = path.dirname(dir)
      for (const other of fs.existsSync(parent) ? fs.readdirSync(parent) : []) {
        const d = path.join(parent, other)
        log(`screen: removing the baseline worktree ${path.relative(process.cwd(), d)}`)
        spawnSync('git', ['worktree', 'remove', '--force', d])
        fs.rmSync(d, { recursive: true, force: true })
      }
      spawnSync('git', ['worktree', 'prune'])
      fs.mkdirSync(parent, { recursive: true })
      log(`screen: git worktree add ${path.relative(process.cwd(), dir)} ${short} (${ref})`)
      git(['worktree', 'add', '--detach', dir, sha])
      const cp = spawnSync('cp', ['-al', path.resolve('node_modules'), path.join(dir, 'node_modules')], { encoding: 'utf8' })
      if (cp.status !== 0) return { ref, reason: `cp -al node_modules failed: ${cp.stderr.trim().slice(-300)}` }
      log(`screen: npm run build in the baseline (${short})`)
      const t = Date.now()
      const b = spawnSync('npm', ['run', 'build'], { cwd: dir, encoding: 'utf8', timeout: 900_000, maxBuffer: 64 * 1024 * 1024 })
      if (b.status !== 0) return { ref, reason: `npm run build of ${label} failed (${b.status ?? b.signal}): ${(b.stderr || b.stdout).trim().slice(-400)}` }
      fs.writeFileSync(marker, `${sha}\n${new Date().toISOString()}\n`)
      log(`screen: baseline built in ${((Date.now() - t) / 1000).toFixed(0)} s`)
    } else log(`screen: reusing the baseline build in ${path.relative(process.cwd(), dir)}`)
    if (lockOf(dir) !== lockOf(process.cwd())) notes.push(`its package-lock.json differs from this checkout's: it was built with this checkout's node_modules (hard-linked)`)
    return { dir, ref, sha, label, notes }
  } catch (e) {
    return { ref, reason: (e as Error).message }
  }
}
