import Module from 'node:module'

type Compile = ((this: Module, content: string, filename: string, format?: string) => unknown) & {[WATCHING]?: true}

const WATCHING = Symbol.for('oclif-plugin-mcp.esm-require-guard')

/**
 * Lets require() load ES modules again where v8-compile-cache has taken it over. Some CLIs of the oclif v1 era (vtex
 * among them) require v8-compile-cache first thing in their bin. It replaces Module.prototype._compile with one that
 * compiles every file as a CommonJS script: on a Node that can require() an ES module (20.19 and 22.12 on), Node
 * hands _compile the format 'module', the replacement ignores it, and the host fails on this plugin's first `import`
 * ("Cannot use import statement outside a module"). What it compiles cannot import() either
 * (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), which @oclif/core does.
 *
 * So the first time an ES module is required, v8-compile-cache is uninstalled, through the one door it leaves: its
 * exit listener, which saves its cache and puts Node's own _compile back (it stays registered, and does the same at
 * exit). Until then, and in a process that never requires one (every other command of the host), the cache stays.
 * Returns whether the watch was put in place: 'watching', 'absent' (no v8-compile-cache, or watched already), or
 * 'stuck' (v8-compile-cache without the exit listener it is known by: the host then fails on this plugin's first
 * ES module, and COMPILE_CACHE_ADVICE says what to do).
 */
export function letRequireLoadEsm(): 'absent' | 'stuck' | 'watching' {
  const proto = Module.prototype as unknown as {_compile: Compile}
  const cached = proto._compile
  if (cached[WATCHING] || !String(cached).includes('_moduleCompile(')) return 'absent'
  const uninstall = process.listeners('exit').find((listener) => String(listener).includes('nativeCompileCache.uninstall()'))
  if (!uninstall) return 'stuck'

  const watching: Compile = function (this: Module, content: string, filename: string, format?: string) {
    if (format !== 'module' || proto._compile !== watching) return cached.call(this, content, filename, format)
    ;(uninstall as () => void)()
    if (proto._compile === watching || proto._compile === cached) {
      proto._compile = cached
      throw new Error(`oclif-plugin-mcp: could not uninstall v8-compile-cache to load ${filename}`)
    }

    return proto._compile.call(this, content, filename, format)
  }

  watching[WATCHING] = true
  proto._compile = watching
  return 'watching'
}

/** What to do where v8-compile-cache cannot be set aside from inside the process. */
export const COMPILE_CACHE_ADVICE =
  'This CLI loads v8-compile-cache, which cannot load the ES modules of oclif-plugin-mcp: set DISABLE_V8_COMPILE_CACHE=1 in the environment that starts it (the "env" of its MCP server entry).'
