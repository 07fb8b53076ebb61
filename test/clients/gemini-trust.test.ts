import {afterAll, describe, expect, it} from '@jest/globals'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {geminiTrusts} from '../../src/clients/client-setup.js'
import type {Place} from '../../src/clients/client-specs.js'

// Gemini CLI's own rule (0.61, isPathTrusted): of the recorded folders that hold the folder — a TRUST_PARENT entry
// standing for the folder above it — the longest entry decides.
describe('geminiTrusts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gemini-trust-'))
  afterAll(() => rmSync(dir, {force: true, recursive: true}))
  const file = join(dir, 'trustedFolders.json')
  const place = (cwd: string): Place => ({cwd, env: {GEMINI_CLI_TRUSTED_FOLDERS_PATH: file}, home: dir, platform: 'linux'})

  it.each<[Record<string, string>, string, boolean]>([
    [{'/work/app': 'TRUST_FOLDER'}, '/work/app', true],
    [{'/work/app': 'TRUST_FOLDER'}, '/work/app/src', true],
    [{'/work/app': 'TRUST_FOLDER'}, '/work/other', false],
    // TRUST_PARENT on a folder trusts the folder above it, so the folder itself and its siblings.
    [{'/work/app': 'TRUST_PARENT'}, '/work/app', true],
    [{'/work/app': 'TRUST_PARENT'}, '/work/sibling', true],
    [{'/work/app': 'TRUST_PARENT'}, '/elsewhere', false],
    // The longest entry that holds the folder decides.
    [{'/work': 'TRUST_FOLDER', '/work/secret': 'DO_NOT_TRUST'}, '/work/secret/x', false],
    [{'/work': 'DO_NOT_TRUST', '/work/app': 'TRUST_FOLDER'}, '/work/app', true],
    [{}, '/work/app', false],
  ])('%p: %s → %s', (recorded, cwd, trusted) => {
    writeFileSync(file, `// comments are allowed\n${JSON.stringify(recorded)}`)
    expect(geminiTrusts(place(cwd))).toBe(trusted)
  })

  it('trusts nothing when the file is missing or unreadable', () => {
    writeFileSync(file, '{not json')
    expect(geminiTrusts(place('/work/app'))).toBe(false)
    rmSync(file)
    expect(geminiTrusts(place('/work/app'))).toBe(false)
  })
})
