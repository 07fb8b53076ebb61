import {describe, expect, it} from '@jest/globals'
import {spawnSync} from 'node:child_process'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
const FIXTURES = join(ROOT, 'test/fixtures/compile-cache')

/** Requires, in a fresh Node, the real v8-compile-cache (as vtex's bin does), then (guarded or not) an ES module and a CommonJS one that import()s. */
function run(guarded: boolean) {
  const script = `
    require('v8-compile-cache')
    ${guarded ? `console.log('guard', require(${JSON.stringify(join(ROOT, 'dist/host/esm-require-guard.cjs'))}).letRequireLoadEsm())` : ''}
    console.log('esm', require(${JSON.stringify(join(FIXTURES, 'esm.js'))}).name)
    require(${JSON.stringify(join(FIXTURES, 'late.cjs'))})().then((n) => console.log('import()', n))`
  return spawnSync(process.execPath, ['-e', script], {cwd: ROOT, encoding: 'utf8', env: {...process.env, DISABLE_V8_COMPILE_CACHE: ''}})
}

describe('letRequireLoadEsm', () => {
  it('without it, a CLI that loaded v8-compile-cache cannot require() the plugin', () => {
    const ran = run(false)
    expect(ran.stderr).toContain('Cannot use import statement outside a module')
  })

  it('with it, require() loads the ES module, and what is required after it can import()', () => {
    const ran = run(true)
    expect(ran.stderr).toBe('')
    expect(ran.stdout.trim().split('\n')).toEqual(['guard watching', 'esm esm.js', 'import() 1'])
  })

  it('leaves a process without v8-compile-cache alone', () => {
    const ran = spawnSync(process.execPath, ['-e', `console.log(require(${JSON.stringify(join(ROOT, 'dist/host/esm-require-guard.cjs'))}).letRequireLoadEsm())`], {encoding: 'utf8'})
    expect(ran.stdout.trim()).toBe('absent')
  })

  it('says it is stuck where v8-compile-cache is in place but its exit listener is not', () => {
    const script = `require('v8-compile-cache'); process.removeAllListeners('exit'); console.log(require(${JSON.stringify(join(ROOT, 'dist/host/esm-require-guard.cjs'))}).letRequireLoadEsm())`
    const ran = spawnSync(process.execPath, ['-e', script], {cwd: ROOT, encoding: 'utf8', env: {...process.env, DISABLE_V8_COMPILE_CACHE: ''}})
    expect(ran.stdout.trim()).toBe('stuck')
  })
})
